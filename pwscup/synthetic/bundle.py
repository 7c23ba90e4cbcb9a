"""The synthetic round in a competition bundle (``RoundKind.bundle_export`` / ``bundle_import``;
``pwscup.kinds.bundles``).

What a bundle holds of a synthetic round: its configuration (``Round.config`` as checked
against the original: column roles, label, draw sizes, rows allowed, FPR levels, gates), its
two phases (the release phase and the attack phase, as offsets from the bundle's anchor,
each with its upload limits), the original table (``original.csv``, as the organizer
uploaded it) and, in a round offering a data choice, each pack's population
(``<pack>.population.csv``, as uploaded; the packs themselves are the core's
``data_choices``).

Never a release, an attack, a score, a target, how far the round has run (freeze,
publication), a team's draw, the holdout or the auxiliary table, nor the round's secret
seed: the imported round draws a new seed, hence a new holdout, auxiliary table and new
draws for its own teams (the same settings played again are a new game, and an old
round's membership labels say nothing about the new one).

The settings survive a manifest written with sorted keys: the columns' order is the
original's header order (a release's header must follow it), so ``config.columns`` is a
list of ``{"name", "role"}`` rather than an object.
"""

from django.utils.translation import gettext as _

from pwscup.competitions.organizer_files import as_uploaded_bytes
from pwscup.kinds.bundle_files import ORIGINAL, choice_file_key, file_kept, original_required
from pwscup.kinds.bundles import (
    BundleChecks,
    RoundBundle,
    RoundCreation,
    config_read,
    named_list,
    service_checked,
    setting_required,
)
from pwscup.submissions.two_sided_bundle import (
    WINDOW_ERROR_PATHS,
    two_sided_phases_export,
    two_sided_windows,
)
from pwscup.synthetic import engine, selectors
from pwscup.synthetic.services import synthetic_round_create
from pwscup.synthetic.services.populations import population_store
from pwscup.synthetic.services.rounds import SETTING_FIELDS, synthetic_config_check
from scoring.synthetic.config import GATE_KEYS

SETTINGS_KEYS = ("config", "phases")
# A data pack's population (``SynPopulation``): ``<pack>.population.csv``.
POPULATION = "population.csv"
# Where the service's own errors point in the settings.
# The service keys a configuration error by its field (``services.rounds.config_error_field``).
SERVICE_FIELDS = {
    "config": "config",
    "columns": "config.columns",
    "label": "config.label",
    **WINDOW_ERROR_PATHS,
    **{key: f"config.{key}" for key in SETTING_FIELDS if key not in GATE_KEYS},
    **{key: f"config.gates.{key}" for key in GATE_KEYS},
}
# The console's service, its refusal of the table keyed by the bundle's file.
CREATION = RoundCreation(synthetic_round_create, fields={"table": ORIGINAL, **SERVICE_FIELDS})


# --- export ----------------------------------------------------------------------------------


def round_bundle(round, *, anchor, options=None) -> RoundBundle:
    """The round's settings (configuration, both phases as offsets from ``anchor`` with
    their limits) and its original as the organizer uploaded it."""
    config = engine.round_config(round).as_dict()
    config["columns"] = named_list(config["columns"], "role")
    return RoundBundle(
        settings={
            "config": config,
            "phases": two_sided_phases_export(round, anchor),
        },
        files={
            ORIGINAL: as_uploaded_bytes(round.original_file, round.original_source),
            **{
                f"{stored.choice_key}.{POPULATION}": as_uploaded_bytes(stored.file, stored.source)
                for stored in selectors.offered_populations(synthetic=selectors.synthetic_of(round))
            },
        },
    )


# --- import ----------------------------------------------------------------------------------


def round_from_bundle(*, competition, entry, start, user):
    """Create the round through ``synthetic_round_create`` (the console's service: the
    configuration checked against the original, the draws from a new seed, the windows,
    the address and the time zone), each window ``start`` plus the bundle's offsets.
    Raises ``ValidationError`` keyed by the settings' path (``config.columns[2].role``,
    ``phases.attack.opens_at``, ``phases.anonymization.daily_limit``) or the file's role
    (``original.csv``): every error of the keys, the phases, the files and the configuration
    at once (``BundleChecks``); the service's checks (the original against the
    configuration, the draws) once they all pass."""
    checks = BundleChecks()  # every independent check runs; one answer names every error
    settings = entry.settings_of(SETTINGS_KEYS, checks=checks)
    config = checks.run(_config_of, settings)
    windows = checks.run(two_sided_windows, settings, start, entry, otherwise={})
    table = checks.run(_original, entry.files)
    if config is not None:  # the configuration's own rules need it read
        checks.run(service_checked, synthetic_config_check, config, SERVICE_FIELDS, top="config")
    synthetic = CREATION.created(
        entry,
        checks,
        competition=competition,
        table=table,
        table_filename=ORIGINAL,
        config=config,
        **windows,
        user=user,
    )
    for name in sorted(entry.files):
        key = choice_file_key(name, POPULATION)
        if key is None:
            continue
        file_kept(
            name,
            population_store,
            synthetic=synthetic,
            key=key,
            table=entry.files[name],
            filename=name,
        )
    return synthetic.round


def _config_of(settings: dict) -> dict:
    return config_read(setting_required(settings, "config", "settings"), "columns", "role")


def _original(files) -> bytes:
    return original_required(
        files,
        message=_("%(role)s is not a file of a synthetic round (it has only %(known)s)."),
        missing=_("The bundle lacks the synthetic round's original table, original.csv."),
        takes=lambda name: choice_file_key(name, POPULATION) is not None,
        known=f"{ORIGINAL}, <pack>.population.csv",
    )
