"""The synthetic round's forms. The console's: step 1 takes the original table, step 2 the
column roles, the label, the sizes, the gates, the density attack's bandwidth and the two
windows; they collect values, ``services.synthetic_round_create`` (with
``scoring.synthetic.config``) checks them. The teams': a release (``teamX_synthetic.csv``)
and an attack (``teamX_mia_teamY.csv``), each the file only; the services check everything
else."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.choice_forms import DataChoiceFileForm
from pwscup.competitions.round_create import ServiceErrorsForm
from pwscup.core.form_fields import positive_int_field
from pwscup.core.session_drafts import KeptUploadForm
from pwscup.submissions.two_sided_forms import NumberListField, TwoSidedRoundForm, windows_initial
from pwscup.synthetic.drafts import proposed_sizes
from pwscup.synthetic.services.rounds import SETTING_FIELDS
from scoring.synthetic.config import DEFAULTS, GATE_KEYS, ROLES

ROLE_LABELS = {"numeric": _("numeric"), "categorical": _("categorical")}


class OriginalForm(KeptUploadForm, forms.Form):
    """Step 1; once a table is kept (``kept=True``) the field may stay empty (it stays)."""

    original = forms.FileField(
        label=_("Original table (CSV, UTF-8 or CP932)"),
        help_text=_(
            "The population P: the holdout, each team's members and non-members and the "
            "auxiliary table are drawn from its rows. It is never shown to a team."
        ),
    )


class PopulationForm(DataChoiceFileForm):
    """The population of one of the round's data packs (the console's panel)."""

    choice = forms.ChoiceField(label=_("Data pack"))
    table = forms.FileField(
        label=_("Population (CSV, UTF-8 or CP932)"),
        help_text=_(
            "The round's original's columns in its order; the teams of this pack draw their "
            "members, non-members and challenge sets from its rows, with its own holdout and "
            "auxiliary table. Replaceable until a team has drawn from it."
        ),
    )


def _size_field(label, help_text, **kwargs):
    return positive_int_field(
        label=label,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
        **kwargs,
    )


class SettingsForm(ServiceErrorsForm, TwoSidedRoundForm):
    """Step 2: a role per column of the uploaded header (``role_<k>``), then the rest."""

    label = forms.ChoiceField(
        label=_("Label column (the utility task predicts it)"),
        help_text=_("A categorical column with at least two values, e.g. income."),
    )
    n_holdout = _size_field(
        _("Holdout rows (n_holdout)"), _("Kept secret; the utility model is scored on them.")
    )
    n_train = _size_field(
        _("Members per team (n_train)"), _("The private training table each team downloads.")
    )
    n_challenge = _size_field(
        _("Challenge rows per team (n_challenge)"),
        _("Half members, half non-members; a multiple of 4 (dev and final halves)."),
    )
    n_aux = _size_field(_("Auxiliary rows (n_aux)"), _("Public to every team in the attack phase."))
    min_rows = _size_field(
        _("Fewest rows of a release (min_rows)"),
        _("Empty: 1. PWSCup 2020 took releases of 1,000 to 100,000 rows."),
        required=False,
    )
    max_rows = _size_field(
        _("Most rows of a release (max_rows)"),
        _("Empty: 3 × the members per team."),
        required=False,
    )
    fpr_levels = NumberListField(
        label=_("False-positive levels of TPR@FPR"),
        max_length=200,
        help_text=_("Comma-separated, the first one the headline, e.g. 0.1, 0.01."),
        error_messages={
            "not_a_number": _("“%(value)s” is not a number (write the levels as 0.1, 0.01).")
        },
    )
    u_ml_min = forms.FloatField(
        label=_("Gate: least U_ML"),
        help_text=_(
            "A release below it gets no rank: listed last, in no standings. A number ≥ 0, "
            "as U_ML is; 0: no gate."
        ),
    )
    u_1_max = forms.FloatField(
        label=_("Gate: most U_1"),
        help_text=_(
            "A release above it gets no rank: listed last, in no standings. From 0 to 1, as U_1 is."
        ),
    )
    r_copy_excess_max = forms.FloatField(
        label=_("Gate: most R_copy beyond chance"),
        required=False,
        help_text=_(
            "How much larger (0–1) a release's share of rows equal to a member may be than its "
            "share equal to a row of as many holdout rows, which the team never saw (what "
            "chance gives, high on a table of a few categorical columns): a release above it is "
            "scored but never published. Empty: 0.1."
        ),
    )
    density_bandwidth = forms.FloatField(
        label=_("Density attack's bandwidth (density_bandwidth)"),
        required=False,
        help_text=_(
            "The built-in density attack's Gaussian kernel, in the embedding where a "
            "categorical mismatch is 0.71 apart; a positive number. Empty: 0.1."
        ),
    )

    def __init__(self, *args, columns: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.columns = list(columns)
        self.role_names = []
        for k, column in enumerate(self.columns):
            name = f"role_{k}"
            self.fields[name] = forms.ChoiceField(
                label=column,
                choices=[(role, ROLE_LABELS[role]) for role in ROLES],
                widget=forms.RadioSelect,
            )
            self.role_names.append(name)
        self.fields["label"].choices = [(c, c) for c in self.columns]
        # Errors of the column roles as a whole (the service's ``columns``), over the table.
        self.column_errors: list[str] = []

    def role_fields(self):
        return [self[name] for name in self.role_names]

    def place_service_error(self, field, item, message) -> bool:
        """The column roles' errors over the roles table."""
        if field != "columns":
            return False
        self.column_errors.append(message)
        return True

    def setting_fields(self):
        """The settings asked one by one, but the gates (the form shows them apart)."""
        return [self[name] for name in SETTING_FIELDS if name not in GATE_KEYS]

    def config(self) -> dict:
        """The round's configuration (``scoring.synthetic.config``) the fields describe."""
        data = self.cleaned_data
        # A setting left empty takes the settings' default.
        given = {key: data[key] for key in SETTING_FIELDS if data.get(key) is not None}
        return {
            "columns": {c: data[n] for c, n in zip(self.columns, self.role_names, strict=True)},
            "label": data["label"],
            **{key: value for key, value in given.items() if key not in GATE_KEYS},
            "gates": {key: value for key, value in given.items() if key in GATE_KEYS},
        }


def settings_initial(*, profiles, label: str, rows: int, now, time_zone: str) -> dict:
    """Step 2's starting values: the proposed roles and label, the spec's sizes (scaled down
    to what the table holds with room for about ten teams), the release phase from now for
    two weeks and the attack phase the week after."""
    sizes = proposed_sizes(rows)
    initial = {
        f"role_{k}": "numeric" if p.numeric else "categorical" for k, p in enumerate(profiles)
    }
    initial.update(
        label=label,
        fpr_levels=list(DEFAULTS["fpr_levels"]),
        **DEFAULTS["gates"],
        density_bandwidth=DEFAULTS["density_bandwidth"],
        **windows_initial(now=now, time_zone=time_zone),
        **sizes,
    )
    return initial


class ReleaseUploadForm(forms.Form):
    file = forms.FileField(label=_("Synthetic release (CSV)"))


class AttackUploadForm(forms.Form):
    file = forms.FileField(label=_("Membership scores (id,score)"))
