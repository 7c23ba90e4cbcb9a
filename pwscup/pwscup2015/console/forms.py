"""The 2015 game's console forms (wizard steps, round settings): they collect values; the
services and ``scoring`` check them."""

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.competitions.dates import form_dates_check
from pwscup.competitions.models import Round
from pwscup.core.form_fields import positive_int_field
from pwscup.core.json_input import json_input
from pwscup.core.time_zones import TimeZoneField, zone_or_default
from pwscup.pwscup2015.models import Pwscup2015Round
from scoring.schema import NUMBER

ROLE_FIELDS = ("qi", "sa", "cross", "match_qi", "euc_sa")
ROLE_LABELS = {
    "qi": _("QI (quasi-identifier)"),
    "sa": _("SA (sensitive attribute)"),
    "cross": _("cross (U2 cross tables)"),
    "match_qi": _("match_qi (attacks match on)"),
    "euc_sa": _("euc_sa (EUC attacks compare)"),
    "e2_column": _("e2 column (E2 attack)"),
    "e4_column": _("e4 column (E4 attack)"),
}

# What each role means, in plain words (spec metrics.md, "Column roles"): shown under the
# wizard's roles grid.
ROLE_NOTES = (
    (
        "QI",
        _(
            "Quasi-identifiers: what an attacker may already know about a person (age, sex, "
            "zip code). Rows with the same values in every QI form a group; k-anonymity (S1, "
            "S2) measures the groups' sizes."
        ),
    ),
    (
        "SA",
        _(
            "Sensitive attributes: the numbers the table is about (income, hours). The "
            "utility measures (U1–U5) compare them with the original; the attacks use them "
            "to single out a person."
        ),
    ),
    (
        "cross",
        _(
            "Columns of the cross tables: U2 and U3 group the rows by these columns and "
            "compare each cell's mean and count with the original table."
        ),
    ),
    (
        "match_qi",
        _(
            "The QI columns an attacker matches on when guessing whose row is whose (E1, E2, "
            "EUC). Tick fewer than all QI for a weaker attacker."
        ),
    ),
    (
        "euc_sa",
        _(
            "The SA columns the Euclidean attack (EUC1, EUC2) compares: the nearest row over "
            "these values is its guess."
        ),
    ),
    (
        _("number"),
        _(
            "Compared as numbers: a submission may write any number in this column; otherwise "
            "every value must come from the original column."
        ),
    ),
    (
        _("e2 / e4 column"),
        _(
            "The one SA column attacks E2 and E4 compare: E2 among the rows matching the QI, "
            "E4 among all rows."
        ),
    ),
    (
        _("none"),
        _("A column in neither QI nor SA: kept in the file, ignored by the measures."),
    ),
)


def metric_choices():
    return [
        (m, f"{m} {'↓' if scoring.LOWER_IS_BETTER.get(m, True) else '↑'}") for m in scoring.METRICS
    ]


class UploadForm(forms.Form):
    original = forms.FileField(
        label=_("Original table (CSV, UTF-8 or CP932)"),
        help_text=_("In the per-team mode: the master table the samples are drawn from."),
    )


class RolesForm(forms.Form):
    """One checkbox per column and role; ``scoring.load_config`` checks the whole."""

    config_file = forms.FileField(
        label=_("Or upload a configuration JSON (replaces the choices above)"), required=False
    )

    def __init__(self, *args, columns: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(c, c) for c in columns]
        for name in ROLE_FIELDS:
            self.fields[name] = forms.MultipleChoiceField(
                label=ROLE_LABELS[name],
                choices=choices,
                required=False,
                widget=forms.CheckboxSelectMultiple,
            )
        for name in ("e2_column", "e4_column"):
            self.fields[name] = forms.ChoiceField(
                label=ROLE_LABELS[name], choices=[("", "—"), *choices], required=False
            )
        self.fields["number_domain"] = forms.MultipleChoiceField(
            label=_("compared as numbers (domain)"),
            choices=choices,
            required=False,
            widget=forms.CheckboxSelectMultiple,
        )
        self.columns = columns

    def raw_config(self) -> dict:
        """The configuration JSON the choices (or the uploaded file) describe."""
        upload = self.cleaned_data.get("config_file")
        if upload:
            return json_input(upload.read(), field="config_file")
        data = self.cleaned_data
        numbers = set(data.get("number_domain") or [])
        return {
            "qi": data.get("qi") or [],
            "sa": data.get("sa") or [],
            "cross": data.get("cross") or [],
            "e2_column": data.get("e2_column") or "",
            "e4_column": data.get("e4_column") or "",
            "match_qi": data.get("match_qi") or [],
            "euc_sa": data.get("euc_sa") or [],
            "domains": {c: (NUMBER if c in numbers else "original-values") for c in self.columns},
        }


def initial_roles(config: dict) -> dict:
    """Form initial values from a configuration dict (``None`` lists mean "all QI/SA")."""
    initial = {name: list(config.get(name) or []) for name in ROLE_FIELDS}
    initial["match_qi"] = list(config.get("match_qi") or config.get("qi") or [])
    initial["euc_sa"] = list(config.get("euc_sa") or config.get("sa") or [])
    initial["e2_column"] = config.get("e2_column") or ""
    initial["e4_column"] = config.get("e4_column") or ""
    domains = config.get("domains") or {}
    initial["number_domain"] = [
        c for c in config.get("sa") or [] if domains.get(c, "number") == "number"
    ] + [c for c, kind in domains.items() if kind == "number" and c not in (config.get("sa") or [])]
    return initial


class DataModeForm(forms.Form):
    data_mode = forms.ChoiceField(
        label=_("Data mode"), choices=Pwscup2015Round.DataMode.choices, widget=forms.RadioSelect
    )
    sample_size = positive_int_field(label=_("Sample size per team"), required=False)
    decoy_count = positive_int_field(
        label=_("Decoys per candidate table"), min_value=0, required=False
    )


def _local_input():
    return forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


PHASE_DATE_FIELDS = (
    "anonymization_opens_at",
    "anonymization_closes_at",
    "attack_opens_at",
    "attack_closes_at",
)


class PhasesForm(forms.Form):
    """Both windows in the round's time zone; the service checks their order."""

    name = forms.CharField(label=_("Round name"), max_length=200)
    slug = forms.SlugField(label=_("Round address"), max_length=50)
    timezone = TimeZoneField(label=_("Time zone of the round"))
    anonymization_opens_at = forms.DateTimeField(
        label=_("Anonymization phase opens"), widget=_local_input()
    )
    anonymization_closes_at = forms.DateTimeField(
        label=_("Anonymization phase closes"), widget=_local_input()
    )
    attack_opens_at = forms.DateTimeField(label=_("Attack phase opens"), widget=_local_input())
    attack_closes_at = forms.DateTimeField(label=_("Attack phase closes"), widget=_local_input())
    allow_attack_before_close = forms.BooleanField(
        label=_("Allow the attack phase to open before the anonymization phase closes"),
        required=False,
    )
    anonymization_daily_limit = positive_int_field(
        label=_("Anonymizations per day"),
        required=False,
        help_text=_("Empty: no limit."),
    )
    anonymization_total_limit = positive_int_field(
        label=_("Anonymizations in total"),
        required=False,
        help_text=_("Empty: no limit."),
    )
    attack_daily_limit = positive_int_field(
        label=_("Attacks per day"), required=False, help_text=_("Empty: no limit.")
    )
    attack_total_limit = positive_int_field(
        label=_("Attacks in total"), required=False, help_text=_("Empty: no limit.")
    )
    attack_target_limit = positive_int_field(
        label=_("Attacks per target"), required=False, help_text=_("Empty: no limit.")
    )
    anonymization_leaderboard_public = forms.BooleanField(
        label=_("Anonymization leaderboard visible to visitors and teams"), required=False
    )
    attack_leaderboard_public = forms.BooleanField(
        label=_("Attack phase leaderboard visible to visitors and teams"), required=False
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The windows are typed in the round's time zone, not the server's.
        zone = self.data.get(self.add_prefix("timezone")) or self.initial.get("timezone")
        self.zone = zone_or_default(zone)

    def clean(self):
        cleaned = super().clean()
        for name in ("opens_at", "closes_at"):
            for kind in ("anonymization", "attack"):
                key = f"{kind}_{name}"
                value = cleaned.get(key)
                if value is not None:
                    cleaned[key] = value.replace(tzinfo=None).replace(tzinfo=self.zone)
        form_dates_check(self, PHASE_DATE_FIELDS, time_zone=self.zone)
        return cleaned


def phases_of(cleaned: dict) -> dict:
    """``{kind: phase_set keyword arguments}`` from a cleaned ``PhasesForm``."""
    return {
        kind: dict(
            opens_at=cleaned[f"{kind}_opens_at"],
            closes_at=cleaned[f"{kind}_closes_at"],
            daily_limit=cleaned.get(f"{kind}_daily_limit"),
            total_limit=cleaned.get(f"{kind}_total_limit"),
            target_limit=cleaned.get(f"{kind}_target_limit"),
            leaderboard_public=bool(cleaned.get(f"{kind}_leaderboard_public")),
        )
        for kind in ("anonymization", "attack")
    }


def windows_of(phases: dict) -> dict:
    return {kind: (v["opens_at"], v["closes_at"]) for kind, v in phases.items()}


def phases_initial(round: Round) -> dict:
    """A ``PhasesForm``'s initial values for an existing round (times in its zone)."""
    zone = zone_or_default(round.timezone)
    initial = {"name": round.name, "slug": round.slug, "timezone": round.timezone}
    for phase in round.phases.all():
        initial[f"{phase.kind}_opens_at"] = phase.opens_at.astimezone(zone).replace(tzinfo=None)
        initial[f"{phase.kind}_closes_at"] = phase.closes_at.astimezone(zone).replace(tzinfo=None)
        initial[f"{phase.kind}_daily_limit"] = phase.daily_limit
        initial[f"{phase.kind}_total_limit"] = phase.total_limit
        initial[f"{phase.kind}_target_limit"] = phase.target_limit
        initial[f"{phase.kind}_leaderboard_public"] = phase.leaderboard_public
    return initial


class RulesForm(forms.Form):
    utility_gates = forms.CharField(
        label=_("Utility gates (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_(
            'A bare number is an upper bound for U1–U6 ({"U1": 100} means U1 ≤ 100); any other '
            'metric needs a direction: {"S1": {"min": 5}} (S1 ≥ 5), {"E1": {"max": 0.5}}.'
        ),
    )
    tie_break_metric = forms.ChoiceField(
        label=_("Tie-break metric (↓ lower is better, ↑ higher is better)"),
        choices=metric_choices,
        initial="U1",
    )
    ranking_rule = forms.ChoiceField(
        label=_("Ranking rule"), choices=Pwscup2015Round.RankingRule.choices
    )
    selection_rule = forms.ChoiceField(
        label=_("Which submission represents a team"), choices=Pwscup2015Round.SelectionRule.choices
    )
    attack_visibility = forms.ChoiceField(
        label=_("Attack rates visible to the attacker"),
        choices=Pwscup2015Round.AttackVisibility.choices,
    )
    auto_freeze = forms.BooleanField(
        label=_("Freeze automatically when the anonymization phase closes"),
        required=False,
        initial=True,
    )

    def clean_utility_gates(self):
        text = self.cleaned_data["utility_gates"].strip()
        if not text:
            return {}
        return json_input(text)


class RoundEditForm(PhasesForm, RulesForm):
    config = forms.CharField(
        label=_("Round configuration (JSON)"),
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=_("Checked against the original table; after a change, rescore everything."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].disabled = True
