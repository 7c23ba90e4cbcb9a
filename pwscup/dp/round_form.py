"""The console's form for a new DP round: its fields (attributes, histograms, levels, tracks,
dates) build the configuration ``dp_round_create`` checks, and the service's errors are put
back next to the field they name."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_create import (
    ChooseAgainForm,
    RoundBasicsForm,
    ServiceErrorsForm,
    setting_choice,
    setting_flag,
)
from pwscup.core.form_fields import (
    POSITIVE_INT_MAX,
    ConfigJsonView,
    comma_list,
    example_rows,
    limit_field,
    local_datetime_field,
    row_error,
)
from pwscup.dp.config_paths import config_path
from scoring.bounded_json import loads_bounded
from scoring.errors import ConfigError

EXAMPLE_CONFIG = {
    "attributes": {
        "gender": ["F", "M"],
        "age": ["<=17", "18-24", "25-34", "35-44", "45-49", "50-55", "56+"],
    },
    "workload": [{"id": "gender_age", "attributes": ["gender", "age"]}],
    "levels": [
        {"id": "eps-0.1", "epsilon": "0.1"},
        {"id": "eps-1", "epsilon": "1"},  # "1.0" would make the level "eps-1.0"
        {"id": "eps-4", "epsilon": "4"},
    ],
    "tracks": {"interactive": True, "batch": "platform"},
}
ATTRIBUTE_ROWS = 8  # rows shown for attributes (a longer list: the JSON view)
TARGET_ROWS = 6


class AttributeRowForm(forms.Form):
    """One attribute: the hidden table's column and its public, ordered domain."""

    name = forms.CharField(label=_("Attribute (a column of the table)"), max_length=200)
    values = forms.CharField(
        label=_("Its values, in order, separated by commas"),
        max_length=20_000,
        required=False,
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"].required = False

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("values", "").strip() and not cleaned.get("name", "").strip():
            self.add_error("name", _("Name the column these values belong to."))
        return cleaned


class TargetRowForm(forms.Form):
    """One histogram of the workload: the attributes it crosses, and its id."""

    attributes = forms.CharField(
        label=_("Attributes of the histogram, separated by commas"),
        max_length=2000,
        required=False,
    )
    target_id = forms.CharField(
        label=_("Id (optional)"),
        max_length=200,
        required=False,
        help_text=_("Empty: the attributes joined by “_” (gender_age)."),
    )


AttributeRows = forms.formset_factory(AttributeRowForm, extra=0, max_num=200)
TargetRows = forms.formset_factory(TargetRowForm, extra=0, max_num=200)


def _level_id(epsilon: str) -> str:
    """``"0.1"`` → ``"eps-0.1"``, ``"1/14"`` → ``"eps-1_14"`` (a level's id is part of URLs)."""
    return "eps-" + re.sub(r"[^0-9A-Za-z.\-]", "_", epsilon)


class DPRoundForm(ChooseAgainForm, ServiceErrorsForm, ConfigJsonView, RoundBasicsForm):
    """A new DP round: its name, address and time zone (``RoundBasicsForm``), then fields
    that build the configuration the service checks (``dp_round_create``); the JSON view
    (``config``), when filled, replaces them."""

    table = forms.FileField(
        label=_("Hidden table (CSV)"),
        help_text=_("One column per attribute below; never shown to teams."),
    )
    levels = forms.CharField(
        label=_("Privacy levels: the ε of each, separated by commas"),
        max_length=2000,
        required=False,
        help_text=_(
            "A decimal (0.1) or a fraction (1/14); each level is a leaderboard of its own, "
            "named eps-<ε>. At most 100."
        ),
    )
    interactive = setting_flag(
        _("Interactive track: teams query the hidden table and pay ε per answer")
    )
    batch = setting_choice(
        _("Batch track: one randomized release of the whole table"),
        [
            ("platform", _("Randomized by the platform")),
            ("upload", _("Uploaded by the team (declared, unverified)")),
            ("both", _("Both")),
            ("off", _("No batch track")),
        ],
    )
    query_types = forms.MultipleChoiceField(
        label=_("Queries the interactive track answers"),
        choices=[
            ("histogram", _("Histogram")),
            ("count", _("Count (one cell)")),
            ("mean", _("Mean of a numeric column")),
        ],
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    max_charges_per_level = forms.IntegerField(
        label=_("Queries per team per level"),
        min_value=1,
        max_value=POSITIVE_INT_MAX,
        required=False,
        help_text=_("From 1 to 100,000."),
    )
    adjacency = setting_choice(
        _("Neighbouring tables"),
        [
            ("replace", _("One row replaced (the number of rows is public)")),
            ("add_remove", _("One row added or removed (no batch track)")),
        ],
    )
    rank_metric = setting_choice(
        _("Ranking by"),
        [("l2", _("L2 error (lower is better)")), ("spearman", _("Rank correlation"))],
    )
    feedback = setting_choice(
        _("Scores shown"),
        [
            ("after_close", _("After the close")),
            ("live", _("At once (upload-only rounds)")),
        ],
    )
    publish_truth = setting_flag(_("Publish the true histograms after the close"))
    config = forms.CharField(
        label=_("Configuration (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 14, "spellcheck": "false"}),
        help_text=_(
            "Filled in, it replaces every field of the configuration above (the other keys: "
            "numeric, reconstruction, baselines, spearman_gate, plausibility_z, max_cells). "
            "Every key is described in docs/dp.md (“The configuration”)."
        ),
    )
    opens_at = local_datetime_field(_("Release phase opens at"))
    closes_at = local_datetime_field(_("Release phase closes at"))
    daily_limit = limit_field(
        _("Estimates per team per level per day"),
        help_text=_("Empty: no limit. Rejected estimates do not count."),
    )
    total_limit = limit_field(
        _("Estimates per team per level in all"),
        help_text=_("Empty: no limit. Rejected estimates do not count."),
    )

    # The window is typed in the round's time zone, as every round form's windows.
    LOCAL_DATES = ("opens_at", "closes_at")
    CONFIG_FIELDS = (
        "levels",
        "interactive",
        "batch",
        "query_types",
        "max_charges_per_level",
        "adjacency",
        "rank_metric",
        "feedback",
        "publish_truth",
    )
    # A key the service names (``dp.config.bad_value``'s, its first part) → its field.
    KEY_FIELDS = {
        "levels": "levels",
        "tracks": "batch",
        "tracks.interactive": "interactive",
        "tracks.batch": "batch",
        "query_types": "query_types",
        "max_charges_per_level": "max_charges_per_level",
        "adjacency": "adjacency",
        "rank_metric": "rank_metric",
        "feedback": "feedback",
        "publish_truth": "publish_truth",
    }

    def __init__(self, data=None, files=None, **kwargs):
        super().__init__(data, files, **kwargs)
        example = EXAMPLE_CONFIG
        self.attribute_rows = example_rows(
            AttributeRows,
            data,
            bound=self.is_bound,
            prefix="attribute",
            example=[
                {"name": name, "values": ", ".join(domain)}
                for name, domain in example["attributes"].items()
            ],
            shown=ATTRIBUTE_ROWS,
        )
        self.target_rows = example_rows(
            TargetRows,
            data,
            bound=self.is_bound,
            prefix="target",
            example=[
                {"attributes": ", ".join(t["attributes"]), "target_id": t["id"]}
                for t in example["workload"]
            ],
            shown=TARGET_ROWS,
        )
        if not self.is_bound:
            self.initial.update(
                levels=", ".join(level["epsilon"] for level in example["levels"]),
                interactive=True,
                batch="platform",
                query_types=["histogram", "count"],
                max_charges_per_level=1000,
                adjacency="replace",
                rank_metric="l2",
                feedback="after_close",
            )

    def config_fields(self):
        """The bound fields of the levels and tracks, in order (the template's fieldset)."""
        return [self[name] for name in self.CONFIG_FIELDS]

    def row_sets(self) -> list:
        return [self.attribute_rows, self.target_rows]

    def clean(self):
        cleaned = super().clean()
        if not self.uses_json():
            # Required only when the fields, not the JSON view, make the configuration.
            for name in ("batch", "max_charges_per_level", "adjacency", "rank_metric", "feedback"):
                if cleaned.get(name) in (None, "") and name not in self.errors:
                    self.add_error(name, forms.Field.default_error_messages["required"])
            self._require_tables(cleaned)
        return cleaned

    def _require_tables(self, cleaned) -> None:
        """A level, an attribute and a histogram at least, each refused on its own field in
        the form's words (the service, given an empty list, names the JSON key instead)."""
        if not comma_list(cleaned.get("levels") or ""):
            self.add_error("levels", _("Give at least one privacy level: its ε."))
        for rows, field, message in (
            (self.attribute_rows, "name", _("Give at least one attribute: its name and values.")),
            (self.target_rows, "attributes", _("Give at least one histogram: its attributes.")),
        ):
            typed = (row.cleaned_data.get(field, "").strip() for row in rows if row.is_valid())
            if rows.is_valid() and not any(typed):
                row_error(self, rows, message, field=field, key=None)

    def _attributes(self) -> dict:
        return {
            row.cleaned_data["name"].strip(): comma_list(row.cleaned_data.get("values", ""))
            for row in self.attribute_rows
            if row.cleaned_data.get("name", "").strip()
        }

    def _workload(self) -> list[dict]:
        workload = []
        for row in self.target_rows:
            names = comma_list(row.cleaned_data.get("attributes", ""))
            if names:
                target_id = row.cleaned_data.get("target_id", "").strip() or "_".join(names)
                workload.append({"id": target_id, "attributes": names})
        return workload

    def config_raw(self):
        """What ``dp_round_create`` takes: the JSON view's text, or the fields' dict."""
        data = self.cleaned_data
        if self.uses_json():
            return data["config"]
        return {
            "attributes": self._attributes(),
            "workload": self._workload(),
            "levels": [
                {"id": _level_id(epsilon.replace(" ", "")), "epsilon": epsilon}
                for epsilon in comma_list(data.get("levels", ""))
            ],
            "tracks": {"interactive": bool(data.get("interactive")), "batch": data["batch"]},
            "query_types": list(data.get("query_types") or []),
            "max_charges_per_level": data["max_charges_per_level"],
            "adjacency": data["adjacency"],
            "rank_metric": data["rank_metric"],
            "feedback": data["feedback"],
            "publish_truth": bool(data.get("publish_truth")),
        }

    def place_service_error(self, field, item, message) -> bool:
        """A configuration error next to the attribute, histogram, level or option it names;
        on the JSON view when that was the configuration, after the place in the JSON it
        names (``levels[0].epsilon: …``, as a bundle's import names it)."""
        if field != "config":
            return False
        if self.uses_json():
            place = config_path(item, self._json_config(), root="")
            if place:
                message = _("%(place)s: %(message)s") % {"place": place, "message": message}
            self.add_error("config", message)
        else:
            self._config_error(item.code or "", item.params or {}, message)
        return True

    def _json_config(self):
        """The JSON view's configuration as posted (``None`` when it is no JSON: then the
        service's message is about the text itself), read by the one bounded parser. Read
        from the posted data: a first error on the field takes it out of ``cleaned_data``."""
        try:
            return loads_bounded(self.data.get(self.add_prefix("config")) or "")
        except ConfigError:
            return None

    def _config_error(self, code: str, params: dict, message: str) -> None:
        key = str(params.get("key", ""))
        if code.startswith("dp.attr.") or key.startswith("attributes"):
            name = params.get("attribute") or key.partition(".")[2]
            return row_error(
                self, self.attribute_rows, message, field="values", key=name, key_field="name"
            )
        if code.startswith("dp.target.") or key.startswith("workload"):
            target = params.get("target")
            return row_error(
                self, self.target_rows, message, field="attributes", key=target, key_of=_id_of
            )
        if code.startswith(("dp.level.", "dp.epsilon.")):
            return self.add_error("levels", message)
        field = (
            {
                "dp.config.batch_needs_replace": "adjacency",
                "dp.config.live_feedback": "feedback",
            }.get(code)
            or self.KEY_FIELDS.get(key)
            or self.KEY_FIELDS.get(key.partition(".")[0])
        )
        self.add_error(field, message)


def _id_of(row) -> str:
    """A target row's key: its id, else its attributes joined (the id the service gives)."""
    data = row.cleaned_data or {}
    return data.get("target_id", "").strip() or "_".join(comma_list(data.get("attributes", "")))
