"""The dp round in a competition bundle (``RoundKind.bundle_export`` / ``bundle_import``;
``pwscup.kinds.bundles``).

What a bundle holds of a DP round: its configuration as the console stored it (normalised,
spec §10: attributes, workload, levels with ε as exact text, tracks, query types, limits of
charges and cells, scoring options, the baselines' settings), its release window as offsets
from the bundle's anchor, and the hidden table (``original.csv``, as the organizer uploaded
it). Never a ledger, a charge, an estimate, a score or the baselines computed at the close:
the imported round starts with every team's budget whole.

The settings survive a manifest written with sorted keys: the attributes' order is the
round's order (cells are row-major in it), so ``attributes`` is a list of
``{"name", "values"}`` rather than an object.
"""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.competitions.organizer_files import as_uploaded_bytes
from pwscup.dp import engine
from pwscup.dp.config_paths import config_path
from pwscup.dp.models import DPRound
from pwscup.dp.services import dp_round_create
from pwscup.kinds.bundle_anchor import window_offsets
from pwscup.kinds.bundle_files import ORIGINAL, original_required
from pwscup.kinds.bundle_limits import (
    limits_export,
    limits_read,
)
from pwscup.kinds.bundles import (
    BundleChecks,
    RoundBundle,
    RoundCreation,
    config_read,
    named_list,
    schedule_offsets,
    setting_required,
    settings_known,
    settings_object,
    window_at_offsets,
)
from scoring.dp.errors import DPError

SETTINGS_KEYS = ("config", "schedule", "limits")
SCHEDULE_KEYS = ("opens_at", "closes_at")
RELEASE_PHASE = gettext_lazy("Release phase")
# The normalised form of a workload target and of a level: any other field is refused (a
# misspelt "epsilom" must not pass silently as it would in a hand-written console JSON).
ENTRY_FIELDS = {"workload": ("id", "attributes"), "levels": ("id", "epsilon")}
# The console's service, and where its own errors point in the settings.
CREATION = RoundCreation(
    dp_round_create,
    fields={
        "config": "config",
        "table": ORIGINAL,
        "opens_at": "schedule.opens_at",
        "closes_at": "schedule.closes_at",
    },
)


# --- export ----------------------------------------------------------------------------------


def bundle_schedule(settings: dict) -> list[tuple]:
    """The release window of the ``schedule`` setting (``RoundKind.bundle_schedule``)."""
    return window_offsets(settings.get("schedule"))


def round_bundle(round, *, anchor, options=None) -> RoundBundle:
    """The round's settings (configuration, release window as offsets from ``anchor``) and
    its hidden table as the organizer uploaded it."""
    dp_round = DPRound.objects.get(round=round)
    config = dict(dp_round.config)
    config["attributes"] = named_list(
        {name: list(values) for name, values in config["attributes"].items()}, "values"
    )
    # The release phase as planned (``planned_window``: not cut short by *Close now*); one
    # closed before it opened with no plan kept gets a length (``schedule_offsets``).
    ((opens_at, closes_at),) = schedule_offsets([dp_round.planned_window()], anchor)
    return RoundBundle(
        settings={
            "config": config,
            "schedule": {"opens_at": opens_at, "closes_at": closes_at},
            "limits": limits_export(dp_round),
        },
        files={ORIGINAL: as_uploaded_bytes(round.original_file, round.original_source)},
    )


# --- import ----------------------------------------------------------------------------------


def round_from_bundle(*, competition, entry, start, user):
    """Create the round through ``dp_round_create`` (the console's service: every check of
    the configuration, the hidden table against it, the window, the address and the time
    zone), its window ``start`` plus the bundle's offsets. Raises ``ValidationError`` keyed
    by the settings' path (``config.levels[2].epsilon``, ``schedule.closes_at``) or the
    file's role (``original.csv``): every error of the keys, the window, the limits, the
    file and the configuration at once (``BundleChecks``); the service's checks (the table
    against the configuration) once they all pass."""
    checks = BundleChecks()  # every independent check runs; one answer names every error
    settings = entry.settings_of(SETTINGS_KEYS, checks=checks)
    config = checks.run(_config_of, settings, checks)
    window = checks.run(_window_of, settings, start, entry)
    # A bundle written before DP rounds had upload limits has none: no limit.
    limits = (
        checks.run(limits_read, settings["limits"], otherwise={}) if "limits" in settings else {}
    )
    table = checks.run(_files, entry.files)
    checks.config(config, engine.config_validate, path=config_path, errors=DPError)
    opens_at, closes_at = window or (None, None)
    dp_round = CREATION.created(
        entry,
        checks,
        competition=competition,
        table=table,
        table_filename=ORIGINAL,
        config_raw=config,
        opens_at=opens_at,
        closes_at=closes_at,
        **limits,
        user=user,
    )
    return dp_round.round


def _files(files) -> bytes:
    return original_required(
        files,
        message=_("%(role)s is not a file of a DP round (it has only %(known)s)."),
        missing=_("The bundle lacks the DP round's hidden table, original.csv."),
    )


def _window_of(settings: dict, start, entry) -> tuple:
    schedule = settings_object(setting_required(settings, "schedule", "settings"), "schedule")
    checks = BundleChecks()
    checks.run(settings_known, schedule, SCHEDULE_KEYS, "schedule")
    window = checks.run(
        window_at_offsets, schedule, start, path="schedule", entry=entry, phase=RELEASE_PHASE
    )
    checks.done()
    return window


def _config_of(settings: dict, checks) -> dict:
    """The configuration as the console takes it (``attributes`` an object again, in the
    bundle's order), its entries' keys checked (refused in ``checks``); the rest is
    ``_config_checked``'s and the service's to check."""
    raw = settings_object(setting_required(settings, "config", "settings"), "config")
    for key, fields in ENTRY_FIELDS.items():
        entries = raw.get(key)
        if isinstance(entries, list):
            for index, item in enumerate(entries):
                if isinstance(item, dict):
                    checks.run(settings_known, item, fields, f"config.{key}[{index}]")
    return config_read(raw, "attributes", "values")
