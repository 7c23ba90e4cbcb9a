"""The console's form for a new sequential round: its fields (releases, QI rows, rules,
gates, master or pool, schedule) build the configuration ``sequential_round_create`` checks,
the JSON view replaces them when filled, and the service's errors are put back next to the
field they name."""

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_create import (
    ChooseAgainForm,
    RoundBasicsForm,
    ServiceErrorsForm,
    setting_choice,
    setting_flag,
    setting_number,
    setting_text,
)
from pwscup.core.form_fields import (
    ConfigField,
    ConfigJsonView,
    comma_list,
    example_rows,
    row_error,
    setting_error,
)
from pwscup.sequential import engine
from pwscup.sequential.demo import PAPER_CONFIG
from pwscup.sequential.schedule_fields import ScheduleFields


class QIRowForm(forms.Form):
    """One quasi-identifier: a column of the master table, compared as a number or a category."""

    column = forms.CharField(label=_("QI column"), max_length=200, required=False)
    kind = setting_choice(
        _("Compared as"),
        [("num", _("a number (generalised to ranges)")), ("cat", _("a category"))],
    )


QIRows = forms.formset_factory(QIRowForm, extra=0, max_num=200)
QI_ROWS = 6  # rows shown (a longer list: the JSON view)
GATE_METRICS = ("IL", "CF_ratio", "SUP", "TMP")


class SequentialRoundForm(
    ChooseAgainForm, ServiceErrorsForm, ConfigJsonView, RoundBasicsForm, ScheduleFields
):
    """A new sequential round: its name, address and time zone (``RoundBasicsForm``), then
    fields that build the configuration the service checks (``sequential_round_create``);
    the JSON view (``config``), when filled, replaces them."""

    n_releases = setting_number(
        _("Number of releases"),
        help_text=_("Teams publish the table once per release; at least the master's largest lsb."),
    )
    m = setting_number(_("m (each published group holds at least m distinct sensitive values)"))
    sa = setting_text(_("Sensitive column"), max_length=200)
    sa_domain = setting_text(
        _("Its possible values, separated by commas (optional)"),
        max_length=20_000,
        help_text=_("Empty: the values found in the master table."),
    )
    mode = setting_choice(
        _("Publication"),
        [
            ("online", _("Online: each release before the next person arrives")),
            ("batch", _("Batch: every release known in advance")),
        ],
    )
    require = setting_choice(
        _("Releases must be"),
        [
            ("m-invariant", _("m-invariant (ranked only if so)")),
            ("m-unique", _("m-unique in each release")),
            ("none", _("No requirement (scored only)")),
        ],
    )
    require_m_eligible = setting_flag(
        _("Refuse a master table whose releases cannot be m-eligible")
    )
    counterfeit_disclosure = setting_choice(
        _("Counterfeit records disclosed"),
        [
            ("per-release", _("Their number per release")),
            ("per-group", _("Their number per group")),
            ("none", _("Not disclosed")),
        ],
    )
    last_disclosure = setting_flag(_("Releases say which persons leave after them (column last)"))
    allow_tampering = setting_flag(_("Allow tampered records (column tampered)"))
    allow_suppression = setting_flag(_("Allow suppressing persons"))
    gate_IL = setting_number(
        _("Largest information loss (IL)"),
        field=forms.FloatField,
        help_text=_("Utility gates: a release above a bound is not ranked. Empty: no gate."),
    )
    gate_CF_ratio = setting_number(_("Largest share of counterfeits"), field=forms.FloatField)
    gate_SUP = setting_number(_("Largest number of suppressed persons"), field=forms.FloatField)
    gate_TMP = setting_number(_("Largest number of tampered records"), field=forms.FloatField)
    master = forms.FileField(
        label=_("Master table (pid,QI…,sa,lsf,lsb)"),
        required=False,
        help_text=_("One master for every team; leave empty to draw per-team masters from a pool."),
    )
    pool = forms.FileField(
        label=_("Pool of persons (pid,QI…,sa)"),
        required=False,
        help_text=_("Each team gets its own master drawn from it with the three fields below."),
    )
    per_team_size = setting_number(_("Persons in a team's first release"))
    per_team_turnover = setting_number(
        _("Turnover: the chance a person leaves at each release (0 to 1)"), field=forms.FloatField
    )
    per_team_seed = setting_number(
        _("Seed of the draw"), help_text=_("Any integer; the draw also uses a secret of the round.")
    )
    attack_phase = setting_flag(
        _("Attack phase: teams attack each other's releases after the last one"),
        help_text=_("Needs per-team masters (a pool, or one uploaded per team)."),
    )
    config = ConfigField(
        label=_("Configuration (JSON)"),
        required=False,
        help_text=_(
            "Filled in, it replaces every field of the configuration above. Every key is "
            "described in docs/sequential.md (“The configuration”)."
        ),
    )

    CONFIG_FIELDS = (
        "n_releases",
        "m",
        "sa",
        "sa_domain",
        "mode",
        "require",
        "require_m_eligible",
        "counterfeit_disclosure",
        "last_disclosure",
        "allow_tampering",
        "allow_suppression",
    )
    GATE_FIELDS = tuple(f"gate_{metric}" for metric in GATE_METRICS)
    PER_TEAM_FIELDS = ("per_team_size", "per_team_turnover", "per_team_seed")
    SCHEDULE_FIELDS = tuple(
        name for name in ScheduleFields.base_fields if name not in ScheduleFields.ATTACK_FIELDS
    )

    def __init__(self, data=None, files=None, **kwargs):
        super().__init__(data, files, **kwargs)
        # Not required: a post without it (a script's) gets the site's default, like the service.
        self.fields["timezone"].required = False
        # The round's own fields first, in their order here; the schedule's after them.
        self.order_fields(
            name for name in self.declared_fields if name not in ScheduleFields.declared_fields
        )
        example = PAPER_CONFIG  # a blank form starts as the demo's round of the paper
        self.qi_rows = example_rows(
            QIRows,
            data,
            bound=self.is_bound,
            prefix="qi",
            example=[{"column": c, "kind": k} for c, k in example["qi"].items()],
            shown=QI_ROWS,
        )
        if not self.is_bound:
            self.initial.update(
                n_releases=example["n_releases"],
                m=example["m"],
                sa=example["sa"],
                mode="online",
                require="m-invariant",
                require_m_eligible=True,
                counterfeit_disclosure="per-release",
                per_team_turnover=0.2,
                per_team_seed=1,
            )

    def rule_fields(self):
        """Bound fields of the template's *Rules* fieldset (the rest of the configuration)."""
        names = [n for n in self.CONFIG_FIELDS if n not in ("n_releases", "m", "sa", "sa_domain")]
        return [self[name] for name in (*names, *self.GATE_FIELDS)]

    def per_team_fields(self):
        return [self[name] for name in self.PER_TEAM_FIELDS]

    def attack_fields(self):
        return [self[name] for name in self.ATTACK_FIELDS]

    def schedule_fields(self):
        return [self[name] for name in self.SCHEDULE_FIELDS]

    def row_sets(self) -> list:
        return [self.qi_rows]

    def round_config(self) -> dict | None:
        """What ``sequential_round_create`` takes: the JSON view's object, or the fields'.
        A field left empty is sent as null: the service names it."""
        data = self.cleaned_data
        if self.uses_json():
            return data.get("config")
        qi = {}
        if self.qi_rows.is_bound and self.qi_rows.is_valid():
            for row in self.qi_rows:
                column = (row.cleaned_data.get("column") or "").strip()
                if column:
                    qi[column] = row.cleaned_data.get("kind") or "num"
        config = {
            "type": "sequential",
            "n_releases": data.get("n_releases"),
            "m": data.get("m"),
            "qi": qi,
            "sa": (data.get("sa") or "").strip(),
            "sa_domain": comma_list(data.get("sa_domain", "")) or None,
            "mode": data.get("mode") or "online",
            "require": data.get("require") or "m-invariant",
            "require_m_eligible": bool(data.get("require_m_eligible")),
            "last_disclosure": bool(data.get("last_disclosure")),
            "allow_tampering": bool(data.get("allow_tampering")),
            "allow_suppression": bool(data.get("allow_suppression")),
            "counterfeit_disclosure": data.get("counterfeit_disclosure") or "per-release",
            "utility_gates": {
                metric: data[f"gate_{metric}"]
                for metric in GATE_METRICS
                if data.get(f"gate_{metric}") is not None
            },
            "attack_phase": bool(data.get("attack_phase")),
            "per_team": None,
        }
        if data.get("pool") or data.get("per_team_size") is not None:
            config["per_team"] = {
                "pool": "pool.csv",
                "size": data.get("per_team_size"),
                "turnover": data.get("per_team_turnover"),
                "seed": data.get("per_team_seed"),
            }
        return config

    def add_loose_service_error(self, error) -> None:
        """A configuration error next to the field of the key it names (on the JSON view
        when that was the configuration)."""
        for item in error.error_list:
            message = " ".join(item.messages)
            if self.uses_json():
                self.add_error("config", message)
            else:
                self._config_error(item, message)

    def _config_error(self, error, message: str) -> None:
        key, entry = engine.config_error_place(error)
        if key == "qi":
            row_error(self, self.qi_rows, message, field="column", key=entry, key_field="column")
            return
        field = {"utility_gates": f"gate_{entry}", "per_team": f"per_team_{entry}"}.get(key, key)
        setting_error(self, field, message)
