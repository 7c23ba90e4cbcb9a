"""What a round kind gives and takes in a competition bundle (``pwscup.bundles``).

A bundle is one ZIP holding a whole competition: a manifest (JSON, versioned, with a
published schema) and the rounds' files. The core owns the ZIP, the manifest, its schema,
the limits and the transaction; each kind owns its round's ``settings`` (its configuration
and its schedule) and its files, through ``RoundKind.bundle_export`` and
``RoundKind.bundle_import``.

Times are never absolute in a bundle: each is an offset from the competition's start (the
earliest moment any of its rounds opens), written as an ISO 8601 duration (``"P3DT4H"``),
so that one bundle can be played again from any start date. Every kind writes its windows
through ``schedule_offsets`` (a phase closed before it opened gets a length) and reads them
back through ``window_at_offsets``.

An import answers with every error it can know at once, each by its path: a kind runs its
independent checks of an entry (its keys, its windows, its limits, its configuration, its
files) through one ``BundleChecks``, which gathers their refusals, and creates the round only
when none failed (``BundleChecks.done``).
"""

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.utils.duration import duration_iso_string
from django.utils.translation import gettext as _

from pwscup.kinds.bundle_anchor import offset_read
from pwscup.kinds.bundle_checks import BundleChecks
from pwscup.kinds.round_basics import RoundBasics


@dataclass(frozen=True)
class ExportOptions:
    """What the organizer chose for one export, handed to every kind's ``bundle_export``.

    ``include_hidden``: the hidden data a kind keeps from the teams (the scorer round's
    reference and truth packs) goes into the bundle only when ticked; without it the kind
    names what it left out in its settings, and the imported round asks for it before it
    opens. A kind with no such data ignores it (its files are what the round needs to run).
    """

    include_hidden: bool = False


@dataclass(frozen=True)
class RoundBundle:
    """One round as a kind exports it.

    ``settings``: JSON-serialisable (dicts, lists, strings, numbers, booleans, ``None``),
    the same for the same round whatever the anchor (times are ``offset_from`` it): its
    configuration, its schedule, its limits. ``files``: a role, which is the file's name in
    the bundle under ``rounds/<slug>/`` (``"original.csv"``, ``"sample.csv"``), mapped to
    its bytes. Organizer data only: never a team's upload, a permutation or a score.
    """

    settings: dict
    files: dict[str, bytes] = field(default_factory=dict)


@dataclass(frozen=True)
class RoundEntry:
    """One round as the import hands it to its kind: the core's fields (already checked:
    the kind is registered, the address is free, the time zone exists), the kind's
    ``settings`` as the manifest holds them (not checked: the kind checks them with the
    same services as its console) and the round's ``files`` (role → bytes, each as listed in
    the manifest, its SHA-256 checked)."""

    name: str
    slug: str
    order: int
    timezone: str
    settings: dict
    files: dict[str, bytes]

    def basics(self, competition) -> RoundBasics:
        """The core's fields as every kind's round creation service takes them (the
        console's ``basics``), for the round in ``competition``."""
        return RoundBasics(
            competition=competition,
            name=self.name,
            slug=self.slug,
            timezone=self.timezone,
            order=self.order,
        )

    def settings_of(self, known, *, checks: BundleChecks) -> dict:
        """The kind's settings, which must be an object (else the refusal, at once: nothing
        can be read from it); a key not in ``known`` is refused in ``checks``."""
        settings = settings_object(self.settings, "settings")
        checks.run(settings_known, settings, known, "settings")
        return settings

    def created_by(self, create, *, competition, fields: dict, top: str = "settings", **arguments):
        """What ``create`` (the kind's round creation service, the console's) returns for
        the round in ``competition``, called with the core's fields (``basics``) and the
        kind's ``arguments`` read from the bundle; its refusal keyed by where each value is
        in the bundle (``service_error_rekeyed`` with ``fields`` and ``top``)."""
        try:
            return create(basics=self.basics(competition), **arguments)
        except ValidationError as error:
            raise service_error_rekeyed(error, fields, top=top) from None


@dataclass(frozen=True)
class RoundCreation:
    """A kind's round creation service (the console's, ``create``) as its bundle import
    calls it, declared once beside the import: where each of the service's errors is in the
    bundle (``fields`` and ``top``, as ``service_error_rekeyed`` takes them)."""

    create: Callable
    fields: dict
    top: str = "settings"

    def created(self, entry: RoundEntry, checks: BundleChecks, *, competition, **arguments):
        """What ``create`` returns for ``entry`` in ``competition`` with the ``arguments``
        read from the bundle, once ``checks`` holds no refusal (else all of them, at once:
        ``BundleChecks.done``); the service runs only on settings that all passed."""
        checks.done()
        return entry.created_by(
            self.create, competition=competition, fields=self.fields, top=self.top, **arguments
        )


def offset_from(at: dt.datetime | None, anchor: dt.datetime) -> str | None:
    """``at`` as an ISO 8601 duration after ``anchor`` (``None`` stays ``None``)."""
    if at is None:
        return None
    return duration_iso_string(at - anchor)


def at_offset(offset, start: dt.datetime, *, field: str) -> dt.datetime:
    """``start`` plus ``offset`` (an ISO 8601 duration, as ``offset_from`` wrote it).

    Raises ``ValidationError`` keyed ``field`` naming the value when it is not a duration.
    """
    duration = offset_read(offset)
    if duration is None:
        raise ValidationError(
            {
                field: _(
                    "%(value)s is not a duration: write an ISO 8601 duration such as P3DT4H "
                    "(3 days and 4 hours after the start)."
                )
                % {"value": repr(offset)[:80]}
            }
        )
    try:
        return start + duration
    except OverflowError:
        raise ValidationError(
            {field: _("%(value)s is too far from the start date.") % {"value": offset[:80]}}
        ) from None


# A round's schedule in a bundle. Publishing (or *Close now*) closes every phase still to
# come at that moment: a phase that had not opened yet then opens and closes at the same
# instant, and its planned length is not kept anywhere. Such a phase cannot be created again
# (a phase closes after it opens), so the export gives it ``EMPTY_PHASE_LENGTH``; one rule for
# every kind, here, so that every kind's finished round can be imported and cloned.

EMPTY_PHASE_LENGTH = dt.timedelta(days=7)


def schedule_offsets(windows, anchor: dt.datetime) -> list[tuple[str | None, str | None]]:
    """A round's upload windows, ``(opens_at, closes_at)`` in the order they run (``None``:
    no such time), as offsets from ``anchor`` (``offset_from``), every window of positive
    length: one that closes when (or before) it opens gets ``EMPTY_PHASE_LENGTH`` from its
    opening, and every later window of the list moves as much later, so that the phases
    keep their order and the gaps between them (``docs/bundles.md``).

    >>> at = dt.datetime(2026, 4, 6, 9, tzinfo=dt.UTC)
    >>> schedule_offsets([(at, at + dt.timedelta(days=2)), (at + dt.timedelta(days=2),) * 2], at)
    [('P0DT00H00M00S', 'P2DT00H00M00S'), ('P2DT00H00M00S', 'P9DT00H00M00S')]
    """
    shift, offsets = dt.timedelta(0), []
    for opens_at, closes_at in windows:
        opens_at = None if opens_at is None else opens_at + shift
        closes_at = None if closes_at is None else closes_at + shift
        if opens_at is not None and closes_at is not None and closes_at <= opens_at:
            shift += opens_at + EMPTY_PHASE_LENGTH - closes_at
            closes_at = opens_at + EMPTY_PHASE_LENGTH
        offsets.append((offset_from(opens_at, anchor), offset_from(closes_at, anchor)))
    return offsets


def window_at_offsets(
    window: dict, start: dt.datetime, *, path: str, entry: "RoundEntry", phase
) -> tuple[dt.datetime, dt.datetime]:
    """A window ``{"opens_at": ..., "closes_at": ...}`` of the settings at ``path`` (both
    required) as ``start`` plus its offsets, refused when it closes when or before it opens
    with a message naming the round (``entry``) and the ``phase`` (its label) and saying
    what to do: a bundle of an older export keeps a phase closed before it opened so."""

    def where(key):  # ``path`` "settings" is the top, as for ``setting_required``
        return key if path == "settings" else f"{path}.{key}"

    checks = BundleChecks()  # both times are read, each refusal kept
    times = {
        key: checks.run(_time_read, window, key, path, start, field=where(key))
        for key in ("opens_at", "closes_at")
    }
    checks.done()
    if times["closes_at"] <= times["opens_at"]:
        raise ValidationError(
            {
                where("closes_at"): _(
                    "Round “%(round)s” (%(slug)s), %(phase)s: it closes when or before it "
                    "opens, so it has no length (older exports wrote a phase that was closed "
                    "before it opened so). Export the competition again from its site, or in "
                    "manifest.json set its closes_at to a later duration than its opens_at."
                )
                % {"round": entry.name, "slug": entry.slug, "phase": phase}
            }
        )
    return times["opens_at"], times["closes_at"]


def _time_read(window: dict, key: str, path: str, start: dt.datetime, *, field: str):
    return at_offset(setting_required(window, key, path), start, field=field)


# Reading a kind's ``settings`` from an uploaded manifest: untrusted JSON, checked step by
# step, each refusal keyed by the setting's path (``"config.levels[1]"``; ``"settings"`` is
# the top) with the same words for every kind.


def settings_object(value, path: str) -> dict:
    """``value`` if it is a JSON object, else the refusal naming ``path``."""
    if not isinstance(value, dict):
        raise setting_type_error(path, value, _("a JSON object"))
    return value


def setting_required(mapping: dict, key: str, path: str):
    """``mapping[key]``, or a refusal naming the missing setting."""
    if key not in mapping:
        where = key if path == "settings" else f"{path}.{key}"
        raise ValidationError({where: _("The setting %(path)s is missing.") % {"path": where}})
    return mapping[key]


def settings_known(mapping: dict, known, path: str) -> None:
    """Refuse every key of ``mapping`` that is not in ``known``, each by its path (a misspelt
    setting is an error, never silently ignored)."""
    unknown = {
        (str(key) if path == "settings" else f"{path}.{key}"): _(
            "Unknown setting %(key)s (known: %(known)s)."
        )
        % {"key": repr(key)[:80], "known": ", ".join(known)}
        for key in mapping
        if key not in known
    }
    if unknown:
        raise ValidationError(unknown)


def service_error_rekeyed(error: ValidationError, fields: dict, *, top: str = "settings"):
    """A round creation service's ``error`` keyed by where its value is in the bundle:
    ``fields`` maps a service's field to its path in the settings (or a file's role), any
    other field keeps its name; an error without fields goes to ``top``."""
    if not hasattr(error, "error_dict"):
        return ValidationError({top: error.messages})
    rekeyed: dict[str, list] = {}
    for key, messages in error.message_dict.items():
        rekeyed.setdefault(fields.get(key, key), []).extend(messages)
    return ValidationError(rekeyed)


def service_checked(check, value, fields: dict, *, top: str = "settings") -> None:
    """``check(value)``, a kind's own check as its creation service makes it (raising a
    ``ValidationError`` keyed by the service's fields), each refusal keyed where its value
    lies in the bundle (``service_error_rekeyed``)."""
    try:
        check(value)
    except ValidationError as error:
        raise service_error_rekeyed(error, fields, top=top) from None


def flag_check(value, *, path: str) -> None:
    """A yes-or-no setting must be JSON's ``true`` or ``false``."""
    if not isinstance(value, bool):
        raise setting_type_error(path, value, _("true or false"))


def setting_type_error(path: str, value, expected) -> ValidationError:
    """The refusal of a setting of the wrong type: ``path`` must be ``expected``."""
    return ValidationError(
        {
            path: _("%(path)s must be %(expected)s, not %(value)s.")
            % {"path": path, "expected": expected, "value": repr(value)[:80]}
        }
    )


# The manifest is written with sorted keys, so an object whose order matters (a table's
# columns) travels as a list of ``{"name": ..., <value_key>: ...}`` and is read back in order.


def named_list(mapping: dict, value_key: str) -> list[dict]:
    """``{"age": ["0-9", ...]}`` → ``[{"name": "age", value_key: ["0-9", ...]}]``, in order."""
    return [{"name": name, value_key: value} for name, value in mapping.items()]


def named_list_read(items, path: str, value_key: str) -> dict:
    """``named_list``'s list back as an object in its order, each entry checked: an object
    with exactly ``name`` and ``value_key``, a name that is a non-empty string, given once.
    Refusals keyed by the entry's path (``"config.qi[1].name"``)."""
    if not isinstance(items, list) or not items:
        raise setting_type_error(
            path, items, _("a list of {%(keys)s}") % {"keys": f'"name", "{value_key}"'}
        )
    ordered, checks = {}, BundleChecks()  # every entry read, each refusal kept
    for index, item in enumerate(items):
        checks.run(_named_item_read, item, f"{path}[{index}]", value_key, ordered)
    checks.done()
    return ordered


def _named_item_read(item, where: str, value_key: str, ordered: dict) -> None:
    """One entry of ``named_list_read`` into ``ordered`` (its name once), or its refusals."""
    item = settings_object(item, where)
    checks = BundleChecks()
    checks.run(settings_known, item, ("name", value_key), where)
    name = checks.run(_column_name, item, where, ordered)
    value = checks.run(setting_required, item, value_key, where)
    checks.done()
    ordered[name] = value


def _column_name(item: dict, where: str, ordered: dict) -> str:
    name = setting_required(item, "name", where)
    if not isinstance(name, str) or not name.strip():
        raise setting_type_error(f"{where}.name", name, _("a column name"))
    if name in ordered:
        raise ValidationError(
            {f"{where}.name": _("The column %(name)s is listed twice.") % {"name": name}}
        )
    return name


def config_read(raw, key: str, value_key: str) -> dict:
    """A bundle's ``config`` setting as the console takes it: its ``key``, exported as a
    ``named_list`` of ``value_key``, an object again in the bundle's order (``named_list_read``);
    the rest is the creation service's to check."""
    config = dict(settings_object(raw, "config"))
    config[key] = named_list_read(
        setting_required(config, key, "config"), f"config.{key}", value_key
    )
    return config


def flag_read(mapping: dict, key: str, path: str) -> bool:
    """The yes-or-no setting ``key`` of ``mapping`` (required; ``flag_check``)."""
    value = setting_required(mapping, key, path)
    flag_check(value, path=key if path == "settings" else f"{path}.{key}")
    return value
