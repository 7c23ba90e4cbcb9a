"""The 2015 game's console forms for the round's data (wizard steps): the original table, the
columns' roles and the data mode. They collect values; the services and ``scoring`` check them."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_create import ChooseAgainForm
from pwscup.core.form_fields import positive_int_field
from pwscup.core.json_input import json_input
from pwscup.core.session_drafts import KeptUploadForm
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


class UploadForm(KeptUploadForm, forms.Form):
    original = forms.FileField(
        label=_("Original table (CSV, UTF-8 or CP932)"),
        help_text=_("In the per-team mode: the master table the samples are drawn from."),
    )


class RolesForm(ChooseAgainForm, forms.Form):
    """One checkbox per column and role; ``scoring.load_config`` checks the whole. A post
    refused with a configuration file chosen names it to choose again (``ChooseAgainForm``)."""

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
