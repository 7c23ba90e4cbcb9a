"""The scorer round's console forms. The creation form types the round's settings
(``scoring.scorer.round_config``) as fields, not JSON: the score columns and the gates as
small tables of rows, the rules as choices, the sandbox's limits as numbers; it collects
values, ``services.scorer_round_create`` checks them. The panel's forms (a program version,
a data pack, a team's slot) are in ``panel_forms``."""

import re

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_create import (
    ServiceErrorsForm,
    setting_flag,
    setting_number,
    setting_text,
)
from pwscup.core.errors import scoring_text_naming
from pwscup.core.form_fields import limit_field
from pwscup.scorer.rule_choices import LATER_CHOICES, RULE_CHOICES, RULE_LABELS
from pwscup.submissions.two_sided_forms import (
    SIDES,
    NumberListField,
    TwoSidedRoundForm,
    windows_initial,
)
from scoring.scorer.round_config import (
    DEFAULT_BANDS,
    DEFAULT_COLUMN,
    DEFAULT_TOP_N,
    LIMITS,
)

COLUMN_ROWS = 5
GATE_ROWS = COLUMN_ROWS  # a gate per release column: PWSCup 2021 had four
# Where the settings' errors go: a table's over the table, another setting's next to its field.
TABLES = ("release_columns", "attack_columns", "gates")
FIELDS_BY_SETTING = {
    "release_primary": "release_primary",
    "public_columns": "public_columns",
    "attack_primary": "attack_primary",
    "top_n": "top_n",
    "unattacked": "unattacked",
    "bands": "bands",
    "limits.timeout_seconds": "timeout_seconds",
    "limits.memory_mb": "memory_mb",
    "limits.processes": "processes",
    "release_files.required": "release_files_required",
    "release_files.only_required": "release_files_only",
    "attack_files.required": "attack_files_required",
    "attack_files.only_required": "attack_files_only",
    **{key: key for key in RULE_CHOICES},
}
# A table's setting (``gates``, ``release_columns[2].label_ja``, ``gates[1].max``) is named by
# the table's title, the row's number on the page and the column's label (its row field).
TABLE_SETTING = re.compile(r"(release_columns|attack_columns|gates)(?:\[(\d+)\](?:\.(\w+))?)?")
TABLE_TITLES = {
    "release_columns": _("Release scores"),
    "attack_columns": _("Attack scores"),
    "gates": _("Gates"),
}
ROW_FIELDS = {"higher_is_better": "higher", "min": "value", "max": "value"}


class ScorerSettingsForm(ServiceErrorsForm, forms.Form):
    """The round's settings; the column and gate rows are added in ``__init__``
    (``<side>_col_<i>_<part>``, ``gate_<i>_<part>``). The creation form adds the name and the
    windows; the page *Edit the round's rules* (``rules_form``) keeps the scores and rules."""

    column_count = COLUMN_ROWS  # rows of each score table
    gate_count = GATE_ROWS

    release_primary = setting_text(
        _("Primary release score (its key)"),
        max_length=64,
        help_text=_("It ranks the releases. Empty: the first column."),
    )
    public_columns = setting_text(
        _("Release scores every team sees during the phases (keys)"),
        max_length=1400,
        help_text=_(
            "Comma-separated release score keys, e.g. sample_anonymity, utility: until the "
            "results are published, the public leaderboard shows every team's counted release "
            "with these scores (ranked by the first). Empty: a team sees only its own scores."
        ),
    )
    attack_primary = setting_text(
        _("Primary attack score (its key)"),
        max_length=64,
        help_text=_("The attacker's success. Empty: the first column."),
    )
    top_n = setting_number(
        _("N of the top N releases"),
        help_text=_("Used by the power rule “top N”."),
    )
    unattacked = forms.FloatField(
        label=_("An attack not made counts as"),
        required=False,
        help_text=_(
            "The attack score counted for a release a team did not attack, in the release's "
            "protection and the team's power (PWSCup 2019: 0). Empty: it is left out."
        ),
    )
    bands = NumberListField(
        label=_("Bands (thresholds)"),
        max_length=200,
        required=False,
        help_text=_("Comma-separated, ascending, e.g. 0.25, 0.5, 0.75 (visibility “band”)."),
    )
    timeout_seconds = setting_number(
        _("Time limit of a run (seconds)"), help_text=_("1 to 86,400.")
    )
    memory_mb = setting_number(_("Memory of a run (MB)"), help_text=_("64 to 262,144."))
    processes = setting_number(_("Processes of a run"), help_text=_("8 to 4,096."))

    release_files_required = forms.CharField(
        label=_("Files a release must hold"),
        max_length=3000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_(
            "File names or patterns, one a line or comma-separated (release.csv, *.csv, "
            "data/*.json): each must match a file of the upload (a ZIP's files, or the one "
            "file uploaded). Empty: any file."
        ),
    )
    release_files_only = setting_flag(_("A release holds no other file"))
    attack_files_required = forms.CharField(
        label=_("Files an attack must hold"),
        max_length=3000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("As for a release. Empty: any file."),
    )
    attack_files_only = setting_flag(_("An attack holds no other file"))

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for key, choices in RULE_CHOICES.items():
            # A form sent without a setting added later (a page opened before it) keeps its
            # default rather than refusing.
            self.fields[key] = forms.ChoiceField(
                label=RULE_LABELS[key], choices=choices, required=key not in LATER_CHOICES
            )
        for side in SIDES:
            for i in range(self.column_count):
                self._column_row(side, i)
        for i in range(self.gate_count):
            self.fields[f"gate_{i}_key"] = forms.CharField(
                label=_("Release score (key)"), max_length=64, required=False
            )
            self.fields[f"gate_{i}_bound"] = forms.ChoiceField(
                label=_("Bound"), choices=[("min", _("at least")), ("max", _("at most"))]
            )
            self.fields[f"gate_{i}_value"] = forms.FloatField(label=_("Value"), required=False)
        # Errors of a table as a whole (a column's or a gate's setting), over the table.
        self.table_errors: dict[str, list[str]] = {
            "release_columns": [],
            "attack_columns": [],
            "gates": [],
        }

    @property
    def column_errors(self) -> list[str]:
        """The tables' errors, counted by the summary at the top (``form_error_count``)."""
        return [text for texts in self.table_errors.values() for text in texts]

    def _column_row(self, side: str, i: int) -> None:
        prefix = f"{side}_col_{i}"
        self.fields[f"{prefix}_key"] = forms.CharField(
            label=_("Key"), max_length=64, required=False
        )
        self.fields[f"{prefix}_label"] = forms.CharField(
            label=_("English label"), max_length=200, required=False
        )
        self.fields[f"{prefix}_label_ja"] = forms.CharField(
            label=_("Japanese label"), max_length=200, required=False
        )
        self.fields[f"{prefix}_higher"] = setting_flag(_("Higher is better"))

    def column_rows(self, side: str) -> list[dict]:
        """The bound fields of the side's column table, row by row."""
        parts = ("key", "label", "label_ja", "higher")
        return [
            {part: self[f"{side}_col_{i}_{part}"] for part in parts}
            for i in range(self.column_count)
        ]

    def release_column_rows(self):
        return self.column_rows("release")

    def attack_column_rows(self):
        return self.column_rows("attack")

    def gate_rows(self) -> list[dict]:
        return [
            {part: self[f"gate_{i}_{part}"] for part in ("key", "bound", "value")}
            for i in range(self.gate_count)
        ]

    def rule_fields(self):
        return [self[key] for key in RULE_CHOICES]

    def file_fields(self):
        return [self[f"{side}_files_{part}"] for side in SIDES for part in ("required", "only")]

    def limit_fields(self):
        return [self[key] for key in ("timeout_seconds", "memory_mb", "processes")]

    def clean(self):
        cleaned = super().clean()
        for side in SIDES:
            for i in range(self.column_count):
                prefix = f"{side}_col_{i}"
                labelled = cleaned.get(f"{prefix}_label") or cleaned.get(f"{prefix}_label_ja")
                if labelled and not cleaned.get(f"{prefix}_key"):
                    self.add_error(f"{prefix}_key", _("A column with a label needs its key."))
        for i in range(self.gate_count):
            if cleaned.get(f"gate_{i}_key") and cleaned.get(f"gate_{i}_value") is None:
                self.add_error(f"gate_{i}_value", _("A gate needs its value."))
        return cleaned

    def _columns(self, side: str) -> list[dict]:
        data, columns = self.cleaned_data, []
        for i in range(self.column_count):
            prefix = f"{side}_col_{i}"
            key = (data.get(f"{prefix}_key") or "").strip()
            if not key:
                continue
            column = {"key": key, "higher_is_better": bool(data.get(f"{prefix}_higher"))}
            for part in ("label", "label_ja"):
                if (data.get(f"{prefix}_{part}") or "").strip():
                    column[part] = data[f"{prefix}_{part}"].strip()
            columns.append(column)
        return columns

    def config(self) -> dict:
        """The round's settings (``scoring.scorer.round_config``) the fields describe; an
        empty field leaves its setting at the default."""
        data = self.cleaned_data
        config = {key: data[key] for key in RULE_CHOICES if data.get(key)}
        for side in SIDES:
            columns = self._columns(side)
            if columns:
                config[f"{side}_columns"] = columns
            if (data.get(f"{side}_primary") or "").strip():
                config[f"{side}_primary"] = data[f"{side}_primary"].strip()
        public = (data.get("public_columns") or "").replace("、", ",").split(",")
        if any(key.strip() for key in public):
            config["public_columns"] = [key.strip() for key in public if key.strip()]
        if data.get("top_n") is not None:
            config["top_n"] = data["top_n"]
        if data.get("bands"):
            config["bands"] = data["bands"]
        if data.get("unattacked") is not None:
            config["unattacked"] = data["unattacked"]
        config["gates"] = [
            {"key": data[f"gate_{i}_key"].strip(), data[f"gate_{i}_bound"]: data[f"gate_{i}_value"]}
            for i in range(self.gate_count)
            if (data.get(f"gate_{i}_key") or "").strip()
        ]
        for side in SIDES:
            patterns = [
                part.strip()
                for line in (data.get(f"{side}_files_required") or "").splitlines()
                for part in line.replace("、", ",").split(",")
                if part.strip()
            ]
            if patterns or data.get(f"{side}_files_only"):
                config[f"{side}_files"] = {
                    "required": patterns,
                    "only_required": bool(data.get(f"{side}_files_only")),
                }
        limits = {
            key: data[key] for key in ("timeout_seconds", "memory_mb", "processes")
            if data.get(key) is not None
        }  # fmt: skip
        if limits:
            config["limits"] = limits
        return config

    def place_service_error(self, field, item, message) -> bool:
        """The settings' errors, each next to the setting it names (its ``key``; a column's
        or a gate's over its table), else on top of the form."""
        if field != "config":
            return False
        setting = str((item.params or {}).get("key", "")).strip("'\"")
        words = self.setting_words(setting)
        if words:  # the words the organizer sees rather than the setting's key
            message = (
                scoring_text_naming(item, key=gettext("“%(words)s”") % {"words": words}) or message
            )
        table = next((t for t in TABLES if setting.startswith(t)), None)
        if table is not None:
            self.table_errors[table].append(message)
        else:
            self.add_error(FIELDS_BY_SETTING.get(setting), message)
        return True

    def setting_words(self, setting: str) -> str | None:
        """What the page calls the setting ``setting``: its field's label, or a table's title
        with the row's number and the column's label (``gates[1].key``: the first filled
        gate row's key); ``None`` for a setting the page has no field for."""
        field = FIELDS_BY_SETTING.get(setting)
        if field is not None:
            return str(self.fields[field].label) if field in self.fields else None
        match = TABLE_SETTING.fullmatch(setting)
        if match is None:
            return None
        table, number, part = match.groups()
        if number is None:
            return str(TABLE_TITLES[table])
        prefix = "gate" if table == "gates" else f"{table.removesuffix('_columns')}_col"
        rows = self.gate_count if table == "gates" else self.column_count
        data = self.cleaned_data
        filled = [i for i in range(rows) if (data.get(f"{prefix}_{i}_key") or "").strip()]
        row = filled[int(number) - 1] if 0 < int(number) <= len(filled) else int(number) - 1
        where = {"table": TABLE_TITLES[table], "row": row + 1}
        cell = self.fields.get(f"{prefix}_{row}_{ROW_FIELDS.get(part, part)}")
        if cell is None:
            return gettext("%(table)s, row %(row)s") % where
        return gettext("%(table)s, row %(row)s: %(column)s") % {**where, "column": cell.label}


class ScorerRoundForm(ScorerSettingsForm, TwoSidedRoundForm):
    """The creation form: the round's name, windows and settings."""

    attack_target_limit = limit_field(
        _("Attacks per team per target"),
        help_text=_(
            "When each attack names one target. An attack on every target counts once against "
            "the total. Empty: no limit."
        ),
    )


def round_initial(*, now, time_zone: str) -> dict:
    """The creation form's starting values: one score column on each side (the settings'
    default), the default rules and limits, the release phase from now for two weeks and the
    attack phase the week after."""
    initial = {
        **windows_initial(now=now, time_zone=time_zone),
        "top_n": DEFAULT_TOP_N,
        "bands": list(DEFAULT_BANDS),
        **{key: default for key, (_low, _high, default) in LIMITS.items()},
    }
    for side in SIDES:
        for i in range(COLUMN_ROWS):
            initial[f"{side}_col_{i}_higher"] = True
        initial[f"{side}_col_0_key"] = DEFAULT_COLUMN["key"]
        initial[f"{side}_col_0_label"] = DEFAULT_COLUMN["label"]
        initial[f"{side}_col_0_label_ja"] = DEFAULT_COLUMN["label_ja"]
    return initial
