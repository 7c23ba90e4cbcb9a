"""The sequential round in a competition bundle (``RoundKind.bundle_export`` / ``bundle_import``;
``pwscup.kinds.bundles``): its settings (configuration, release closes, freeze rule, limits)
and the organizer's shared master or pool, never what was drawn or played. What each setting
holds, what is left out and why: docs/sequential.md, "In a competition bundle".
"""

import datetime as dt

from django.core.files.base import ContentFile
from django.utils.translation import gettext as _

from pwscup.competitions.dates import dates_check
from pwscup.competitions.organizer_files import as_uploaded_bytes
from pwscup.kinds.bundle_anchor import offset_read
from pwscup.kinds.bundle_files import unknown_files_refused
from pwscup.kinds.bundle_limits import (
    LIMIT_KEYS,
    TARGET_LIMIT_KEY,
    limits_export,
    limits_read,
    window_limits_read,
)
from pwscup.kinds.bundles import (
    BundleChecks,
    RoundBundle,
    RoundCreation,
    at_offset,
    config_read,
    flag_read,
    named_list,
    offset_from,
    schedule_offsets,
    setting_required,
    setting_type_error,
    settings_known,
    settings_object,
)
from pwscup.sequential import engine, selectors
from pwscup.sequential.services import sequential_round_create

MASTER, POOL = "master.csv", "pool.csv"
SETTINGS_KEYS = ("config", "schedule", "auto_freeze", "limits", "attack_limits")
SCHEDULE_KEYS = ("opens", "step_closes", "attack_close")
# The console's service, and where its own errors point in the settings.
CREATION = RoundCreation(
    sequential_round_create,
    fields={
        "master": MASTER,
        "pool": POOL,
        "step_closes": "schedule.step_closes",
        "attack_closes_at": "schedule.attack_close",
        "opens_at": "schedule.opens",
        "config": "config",
    },
    top="config",
)
# --- export ----------------------------------------------------------------------------------


def round_bundle(round, *, anchor, options=None) -> RoundBundle:
    """The round's settings (configuration, its opening, release closes and the attack
    phase's planned close as offsets from ``anchor``, freeze rule, limits) and its shared
    master or its pool as the organizer uploaded it."""
    sequential = selectors.sequential_of(round=round)
    config = sequential.config
    config["qi"] = named_list(config["qi"], "type")
    closes = [dt.datetime.fromisoformat(at) for at in sequential.step_closes or []]
    files = {}
    shared = sequential.masters.filter(team__isnull=True).first()
    if shared is not None:
        files[MASTER] = as_uploaded_bytes(shared.file, shared.source)
    if sequential.pool_file:
        files[POOL] = as_uploaded_bytes(sequential.pool_file, sequential.pool_source)
    if sequential.attack_closes_at is not None:  # after the last release's close
        closes.append(sequential.attack_closes_at)
    # Releases and the attack phase only close (each one after the last): no window to give
    # a length.
    offsets = [
        closes_at for _opens, closes_at in schedule_offsets([(None, at) for at in closes], anchor)
    ]
    schedule = {"step_closes": offsets[: len(sequential.step_closes or [])]}
    if sequential.attack_closes_at is not None:
        schedule["attack_close"] = offsets[-1]
    # An opening at the anchor is what a bundle without the key means (the import's start):
    # left out, so that a round exported, imported and exported again gives the same bundle.
    if sequential.opens_at is not None and sequential.opens_at != anchor:
        schedule["opens"] = offset_from(sequential.opens_at, anchor)
    return RoundBundle(
        settings={
            "config": config,
            "schedule": schedule,
            "auto_freeze": sequential.auto_freeze,
            "limits": limits_export(sequential),
            "attack_limits": limits_export(sequential, target=True, prefix="attack_"),
        },
        files=files,
    )


def bundle_schedule(settings: dict) -> list[tuple]:
    """Release 1's opening, then each close (the releases', the attack phase's) as
    offsets (``RoundKind.bundle_schedule``): the opening read as ``_opening`` reads it (none
    in the bundle: at the anchor, unless release 1 closes there already)."""
    schedule = settings.get("schedule")
    schedule = schedule if isinstance(schedule, dict) else {}
    steps = schedule.get("step_closes")
    closes = [offset_read(at) for at in steps] if isinstance(steps, list) else []
    opens = offset_read(schedule.get("opens"))
    first = closes[0] if closes else None
    if "opens" not in schedule and (first is None or first > dt.timedelta(0)):
        opens = dt.timedelta(0)
    closes.append(offset_read(schedule.get("attack_close")))
    return [(opens, None), *((None, at) for at in closes)]


# --- import ----------------------------------------------------------------------------------


def round_from_bundle(*, competition, entry, start, user):
    """Create the round through ``sequential_round_create`` (the console's service), its
    opening and each release's close ``start`` plus the bundle's offset (``_opening``).
    Raises ``ValidationError`` keyed by the settings' path or the file's role: every error
    of the settings and files at once (``BundleChecks``), then the service's checks (the
    master, the pool's draws)."""
    checks = BundleChecks()  # every independent check runs; one answer names every error
    settings = entry.settings_of(SETTINGS_KEYS, checks=checks)
    config = checks.run(_config_of, settings)
    schedule = _schedule_of(settings, checks, start=start, time_zone=entry.timezone)
    files = checks.run(_files, entry.files, otherwise={})
    checks.config(config, engine.config_normalise, path=_config_path)
    arguments = {"config": config, "user": user, **files, **schedule}
    return CREATION.created(entry, checks, competition=competition, **arguments).round


def _schedule_of(settings: dict, checks: BundleChecks, *, start, time_zone) -> dict:
    """The opening and the release closes (``start`` plus the bundle's offsets), the freeze
    rule and both phases' limits, as the service's keyword arguments (those refused left
    out, their refusals in ``checks``)."""
    closes = checks.run(_closes, settings, start, time_zone)
    schedule = {
        "step_closes": closes,
        "auto_freeze": checks.run(flag_read, settings, "auto_freeze", "settings"),
        "attack_closes_at": checks.run(_attack_close, settings, start, time_zone),
        "opens_at": checks.run(_opening, settings, start, time_zone, closes),
    }
    schedule.update(checks.run(_limits_of, settings, otherwise={}))
    # A bundle written before the attack phase had limits has none.
    attack_limits = settings.get("attack_limits", {})
    schedule.update(checks.run(_attack_limits, attack_limits, otherwise={}))
    return schedule


def _config_of(settings: dict) -> dict:
    return config_read(setting_required(settings, "config", "settings"), "qi", "type")


def _limits_of(settings: dict) -> dict:
    return limits_read(setting_required(settings, "limits", "settings"))


def _closes(settings: dict, start, time_zone) -> list[dt.datetime]:
    """Each release's close, every one checked (each refusal by its place)."""
    schedule = settings_object(setting_required(settings, "schedule", "settings"), "schedule")
    checks = BundleChecks()
    checks.run(settings_known, schedule, SCHEDULE_KEYS, "schedule")
    offsets = setting_required(schedule, "step_closes", "schedule")
    if not isinstance(offsets, list):
        raise setting_type_error("schedule.step_closes", offsets, _("a list of durations"))
    closes = [
        checks.run(_time_at, offset, start, time_zone, field=f"schedule.step_closes[{index}]")
        for index, offset in enumerate(offsets)
    ]
    checks.done()
    return closes


def _attack_close(settings: dict, start, time_zone) -> dt.datetime | None:
    """The attack phase's planned close (``schedule.attack_close``; a bundle written before
    the phase had a close has none: open until the results are published)."""
    schedule = settings.get("schedule")
    offset = schedule.get("attack_close") if isinstance(schedule, dict) else None
    if offset is None:
        return None
    return _time_at(offset, start, time_zone, field="schedule.attack_close")


def _opening(settings: dict, start, time_zone, closes) -> dt.datetime | None:
    """When release 1 opens: ``start`` plus ``schedule.opens``; a bundle without it (written
    before rounds had an opening, or of a round open since its creation) opens at ``start``,
    except when its release 1 closes there already (its schedule was anchored at that close):
    then at once, as the bundle was written for (``None``)."""
    schedule = settings.get("schedule")
    offset = schedule.get("opens") if isinstance(schedule, dict) else None
    if offset is not None:
        return _time_at(offset, start, time_zone, field="schedule.opens")
    if closes and closes[0] <= start:
        return None
    return start


def _time_at(offset, start, time_zone, *, field: str) -> dt.datetime:
    at = at_offset(offset, start, field=field)
    dates_check({field: at}, time_zone=time_zone)
    return at


def _attack_limits(raw) -> dict:
    """The attack phase's limits (``attack_limits``: a ``limits`` object with a
    ``target_limit`` too; a key absent is no limit), as the service's keyword arguments."""
    limits = settings_object(raw, "attack_limits")
    checks = BundleChecks()
    checks.run(settings_known, limits, (*LIMIT_KEYS, TARGET_LIMIT_KEY), "attack_limits")
    read = checks.run(window_limits_read, limits, field="attack_limits", target=True, absent=True)
    checks.done()
    return {f"attack_{key}": value for key, value in read.items()}


def _files(files) -> dict[str, ContentFile]:
    """The service's ``master_file`` and ``pool_file`` the bundle holds (none: left out)."""
    unknown_files_refused(
        files,
        takes=lambda name: name in (MASTER, POOL),
        message=_("%(role)s is not a file of a sequential round (it has %(known)s)."),
        known=f"{MASTER}, {POOL}",
    )
    # Read by the service as the console's uploads are (``read``, ``seek``, ``name``).
    roles = {"master_file": MASTER, "pool_file": POOL}
    return {
        key: ContentFile(files[name], name=name) for key, name in roles.items() if name in files
    }


def _config_path(error, config: dict) -> str:
    """Where in the settings the configuration's error lies (``engine.config_error_place``)."""
    key, entry = engine.config_error_place(error)
    names = list(config.get("qi") or {})
    if key == "qi" and entry in names:
        return f"config.qi[{names.index(entry)}]"
    if key == "per_team" and entry:
        return f"config.per_team.{entry}"
    return f"config.{key}" if key else "config"
