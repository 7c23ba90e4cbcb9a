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
from pwscup.pwscup2015.ranking import GateError, parse_gates
from pwscup.pwscup2015.value_ranges import RangeError, parse_value_ranges
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


GATE_BOUNDS = ("min", "max")


def _plain_number(value: float) -> float | int:
    """A typed bound as it is stored: ``100`` rather than ``100.0``."""
    return int(value) if float(value).is_integer() and abs(value) < 1e15 else value


def _shown(value: float | None) -> float | int | None:
    return None if value is None else _plain_number(value)


def gates_from_bounds(bounds: dict) -> dict:
    """The stored gates (``Pwscup2015Round.utility_gates``) of typed bounds
    ``{metric: (at_least, at_most)}``, in the JSON shape ``ranking.parse_gates`` reads: a bare
    number where it means the bound typed (U1–U6 at most, an indicator in its better
    direction), else ``{"min": …, "max": …}``.

    >>> gates_from_bounds({"U1": (None, 100.0), "S1": (5.0, None), "L1": (2.0, None)})
    {'U1': 100, 'S1': {'min': 5}, 'L1': 2}
    """
    gates = {}
    for metric in scoring.ALL_METRICS:
        low, high = bounds.get(metric, (None, None))
        if low is None and high is None:
            continue
        lower_better = scoring.LOWER_IS_BETTER.get(metric, True)
        bare = metric in scoring.UTILITY_METRICS or metric in scoring.INDICATOR_METRICS
        if bare and low is None and lower_better:
            gates[metric] = _plain_number(high)
        elif bare and high is None and not lower_better and metric in scoring.INDICATOR_METRICS:
            gates[metric] = _plain_number(low)
        else:
            gates[metric] = {
                key: _plain_number(value)
                for key, value in (("min", low), ("max", high))
                if value is not None
            }
    return gates


class RulesForm(forms.Form):
    """The rules of a round, every one typed in its own field: the utility gates (one row per
    metric, at least / at most), the range rule (one row per column, from / to) and the size
    of each target's published sample. ``clean`` gathers the rows into the stored values
    (``utility_gates``, ``value_ranges``); ``round_settings_check`` checks them."""

    template_name = "pwscup2015/_rules_form.html"

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
    published_rows = positive_int_field(
        label=_("Published rows per target"),
        required=False,
        help_text=_(
            "Empty: attackers get every kept row of each final anonymization, shuffled. A "
            "number N: a random sample of N of them (iPWS 2023: 300 of 3,985); the attacks "
            "are scored on the sample."
        ),
    )

    def __init__(self, *args, columns=(), **kwargs):
        super().__init__(*args, **kwargs)
        self.gate_rows = []
        for metric in scoring.ALL_METRICS:
            arrow = "↓" if scoring.LOWER_IS_BETTER.get(metric, True) else "↑"
            names = []
            for bound, label in zip(GATE_BOUNDS, (_("at least"), _("at most")), strict=True):
                name = f"gate_{metric}_{bound}"
                self.fields[name] = forms.FloatField(label=f"{metric} {label}", required=False)
                names.append(name)
            self.gate_rows.append((metric, arrow, names))
        self.range_rows = []
        for k, column in enumerate(columns):
            names = []
            for bound, label in zip(GATE_BOUNDS, (_("lower bound"), _("upper bound")), strict=True):
                name = f"range_{k}_{bound}"
                self.fields[name] = forms.FloatField(label=f"{column} {label}", required=False)
                names.append(name)
            self.range_rows.append((column, names))
        self._initial_bounds()

    def _initial_bounds(self) -> None:
        """The typed fields' initial values from the stored ``utility_gates`` and
        ``value_ranges`` (given as ``initial``; the form has no field of either name)."""
        stored_gates = self.initial.pop("utility_gates", None)
        stored_ranges = self.initial.pop("value_ranges", None)
        try:
            gates = parse_gates(stored_gates)
        except GateError:
            gates = []
        for gate in gates:
            self.initial[f"gate_{gate.metric}_min"] = _shown(gate.minimum)
            self.initial[f"gate_{gate.metric}_max"] = _shown(gate.maximum)
        try:
            ranges = parse_value_ranges(stored_ranges)
        except RangeError:
            ranges = {}
        for column, names in self.range_rows:
            if column in ranges:
                for name, value in zip(names, ranges[column], strict=True):
                    self.initial[name] = _shown(value)

    def table_fields(self) -> set[str]:
        """The fields shown in the gates and ranges tables, not one by one."""
        return {name for _m, _a, names in self.gate_rows for name in names} | {
            name for _c, names in self.range_rows for name in names
        }

    def gate_table(self):
        return [
            (metric, arrow, [self[n] for n in names]) for metric, arrow, names in self.gate_rows
        ]

    def range_table(self):
        return [(column, [self[n] for n in names]) for column, names in self.range_rows]

    def clean(self):
        cleaned = super().clean()
        bounds = {
            metric: tuple(cleaned.pop(name, None) for name in names)
            for metric, _arrow, names in self.gate_rows
        }
        cleaned["utility_gates"] = gates_from_bounds(bounds)
        ranges = {}
        for column, names in self.range_rows:
            low, high = (cleaned.pop(name, None) for name in names)
            if low is None and high is None:
                continue
            if low is None or high is None:
                self.add_error(
                    names[0] if low is None else names[1],
                    _("Give both bounds of %(column)s (or neither).") % {"column": column},
                )
                continue
            ranges[column] = {"min": _plain_number(low), "max": _plain_number(high)}
        cleaned["value_ranges"] = ranges
        return cleaned


class RoundEditForm(PhasesForm, RulesForm):
    config = forms.CharField(
        label=_("Round configuration (JSON)"),
        widget=forms.Textarea(attrs={"rows": 10}),
        help_text=_("Checked against the original table; after a change, rescore everything."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["slug"].disabled = True
