"""How an audit entry's details read: one owner for the label of every detail key and for the
text of its value, in the active language (the JSON stays as recorded: English keys, raw
values). The console's audit log (``detail_html``) and the admin (``detail_line``) show the
pairs this module gives."""

import datetime as dt
import re

from django.apps import apps
from django.core.exceptions import FieldDoesNotExist
from django.template.defaultfilters import filesizeformat
from django.utils import formats, timezone
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, gettext
from django.utils.translation import gettext_lazy as _

from pwscup.core.time_zones import moment_html

# Every key given to the audit functions (``audit_record`` and its wrappers); a test checks
# that each literal keyword at a call site has its label here.
LABELS = {
    "address": _("Address"),
    "attack_phase_closes": _("Attack phase closes"),
    "attack_phase_opens": _("Attack phase opens"),
    "attack_top_by": _("The top N by"),
    "attack_top_combine": _("Combined as"),
    "attack_top_n": _("Attack against the top N releases"),
    "attack_top_own": _("The attacker's own release"),
    "automatic": _("Automatic"),
    "award": _("Award"),
    "changed": _("Changed fields"),
    "closes": _("Closes"),
    "cloned_into": _("Cloned into"),
    "data_choice": _("Data choice"),
    "data_choices": _("Data choices"),
    "data_pack": _("Data pack"),
    "division": _("Division"),
    "divisions": _("Divisions counted"),
    # An upload window ended before it opened (the box *end it before it opens*): the opening.
    "ended_before_opening": _("Ended before its planned opening"),
    "fields": _("Changed fields"),
    "frozen_steps": _("Frozen steps"),
    "ids": _("Upload ids"),
    "include_hidden": _("Hidden data included"),
    "member": _("Member"),
    "name": _("Name"),
    "new": _("New name"),
    "old": _("Old name"),
    "opens": _("Opens"),
    "operation": _("Operation no."),
    "organizer": _("Organizer"),
    "phases": _("Phases"),
    "population": _("Population"),
    "program_version": _("Program version"),
    "ranking_run": _("Ranking run"),
    "reason": _("Reason"),
    "rounds": _("Rounds"),
    "rows": _("Rows"),
    "salt": _("Committed salt"),
    "samples": _("Samples"),
    "secrets": _("Secrets included"),
    "sha256": "SHA-256",  # the same in every language
    "size": _("Size"),
    "slot": _("Slot"),
    "source": _("Copied from"),
    "standings": _("Standings"),
    "targets": _("Targets"),
    "team": _("Team"),
    "teams": _("Teams"),
    "total_formula": _("Total formula"),
    "type": _("Kind of upload"),
    "uploads": _("Uploads"),
    "version": _("Version"),
    "window": _("Window"),
}

# Names in ``changed``/``fields`` that are no model field (the first game's round edit).
OTHER_FIELD_LABELS = {
    "address": _("Address"),
    "config": _("Configuration"),
    "anonymization_phase": _("Anonymization phase"),
    "attack_phase": _("Attack phase"),
    "release_phase": _("Release phase"),
}

# The fields of a phase the *Dates and limits* page records as ``<phase>_<field>``
# (``pwscup.competitions.phases_edit.phases_edit_changes``).
PHASE_FIELDS = ("opens_at", "closes_at", "daily_limit", "total_limit", "target_limit")

# The labels of the values a key may hold that are a model's choices or fixed words (a
# data pack's role, the standings' rule, the secrets an archive includes), registered by
# the app that records them (its ``AppConfig.ready``): key → {value: label}.
VALUE_LABELS: dict[str, dict] = {}


def value_labels_register(key: str, labels) -> None:
    """Let ``key``'s values read by ``labels`` (value → label; a model's ``choices``)."""
    VALUE_LABELS.setdefault(key, {}).update(dict(labels))


# The keys whose value lists field names of a model (its ``verbose_name`` is their label).
FIELD_LIST_KEYS = {"changed", "fields"}

# The models whose fields an action's ``changed``/``fields`` name, by app label and model
# (a round's edit also names the fields of its kind's part: found by ``round_models``).
ACTION_MODELS = {
    "competition_edited": (("competitions", "Competition"),),
    "round_edited": (("competitions", "Round"),),
    "presentations_scheduled": (("presentations", "PresentationWindow"),),
    "award_edited": (("accounts", "Award"),),
}

ISO_DATETIME = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}")
DATETIME_FORMAT = "Y-m-d H:i T"  # as the audit log's own column shows the time


def detail_pairs(detail: dict, *, action: str = "") -> list[tuple[str, str]]:
    """``detail`` as (label, value text) pairs in the active language, in its order. An
    unknown key, and a value that is plain text (team names, files, formulas), read as
    recorded."""
    return [
        (str(LABELS.get(key, key)), value_text(key, value, action=action))
        for key, value in detail.items()
    ]


def detail_line(detail: dict, *, action: str = "") -> str:
    """The pairs on one line, ``label: value`` joined by the language's separator."""
    return "; ".join(f"{label}: {text}" for label, text in detail_pairs(detail, action=action))


def detail_html(detail: dict, *, action: str = "") -> SafeString:
    """``detail_line`` for a page: every text escaped, and a value that is a moment in a
    ``<time>`` element as every page writes one (``moment_html``: one line on a phone)."""
    pairs = detail_pairs(detail, action=action)
    return format_html_join(
        "; ",
        "{}: {}",
        (
            (label, text if moment is None else moment_html(moment, text))
            for (label, text), moment in zip(pairs, map(_moment, detail.values()), strict=True)
        ),
    )


def separator() -> str:
    """The list separator of the active language ("、" in Japanese)."""
    return "、" if (get_language() or "").startswith("ja") else ", "


def value_text(key: str, value, *, action: str = "") -> str:
    """One value's text: lists joined, booleans as yes/no, dates in local time, numbers
    localized, a field name or a key by its label; anything else as it is."""
    if isinstance(value, list | tuple):
        return separator().join(_item_text(key, item, action=action) for item in value)
    return _item_text(key, value, action=action)


def _item_text(key: str, value, *, action: str) -> str:
    if value is None:  # a setting left empty (a limit removed, no top N)
        return gettext("none")
    if isinstance(value, bool):
        return gettext("Yes") if value else gettext("No")
    if key == "size" and isinstance(value, int):
        return str(filesizeformat(value))
    if isinstance(value, int | float):
        return formats.number_format(value)
    moment = _moment(value)
    if moment is not None:
        return formats.date_format(moment, DATETIME_FORMAT)
    if not isinstance(value, str):
        return str(value)
    if key in FIELD_LIST_KEYS:
        return field_label(value, action=action)
    if key in VALUE_LABELS:
        return choice_text(VALUE_LABELS[key], value)
    return value


def _moment(value) -> dt.datetime | None:
    """The moment a value records (a datetime, or its ISO text as the JSON keeps it), in local
    time when it is aware; None for any other value."""
    if isinstance(value, str) and ISO_DATETIME.match(value):
        try:
            value = dt.datetime.fromisoformat(value)
        except ValueError:
            return None
    if not isinstance(value, dt.datetime):
        return None
    return timezone.localtime(value) if timezone.is_aware(value) else value


def action_models(action: str) -> list:
    """The models whose fields ``action`` may name; a round's: also its kind's part (a
    model with a one-to-one link to the round)."""
    models = [apps.get_model(*name) for name in ACTION_MODELS.get(action, ())]
    if action == "round_edited":
        models += [
            relation.related_model
            for relation in models[0]._meta.related_objects
            if relation.one_to_one
        ]
    return models


def field_label(name: str, *, action: str = "") -> str:
    """The ``verbose_name`` of the field ``name`` of the model the action edits; else the
    key's label; else the name as recorded. A phase's field of the *Dates and limits* page
    (``<phase>_<field>``) reads the same whichever model holds a field of that name."""
    phase_field = _phase_field_label(name)
    if phase_field:
        return phase_field
    for model in action_models(action):
        try:
            field = model._meta.get_field(name)
        except FieldDoesNotExist:
            continue
        verbose = getattr(field, "verbose_name", None)
        if verbose:
            return str(verbose)
    other = OTHER_FIELD_LABELS.get(name) or LABELS.get(name)
    return str(other) if other else name


def _phase_field_label(name: str) -> str:
    """``<phase>_<field>`` as the phase's name and the field's (*Release phase: closes
    at*); ``""`` for any other name."""
    for field in PHASE_FIELDS:
        phase = OTHER_FIELD_LABELS.get(name.removesuffix(f"_{field}") + "_phase")
        if name.endswith(f"_{field}") and phase:
            verbose = apps.get_model("competitions", "Phase")._meta.get_field(field).verbose_name
            return gettext("%(phase)s: %(field)s") % {"phase": phase, "field": verbose}
    return ""


def choice_text(labels: dict, value: str) -> str:
    """``value`` by its label: one value, ``value (rest)`` (a data pack's role and its data
    choice), ``head (value, value)`` (a standings round's rankings after its slug and
    weight) or ``value, value`` (the secrets); else as recorded."""
    if value in labels:
        return str(labels[value])
    first, space, rest = value.partition(" (")
    if space and first in labels:
        return f"{labels[first]}{space}{rest}"
    inside = rest[:-1].split(", ") if space and rest.endswith(")") else []
    if inside and all(part in labels for part in inside):
        return f"{first}{space}{separator().join(str(labels[part]) for part in inside)})"
    parts = value.split(", ")
    if all(part in labels for part in parts):
        return separator().join(str(labels[part]) for part in parts)
    return value
