"""The pwscup2015 round in a competition bundle (``RoundKind.bundle_export`` / ``bundle_import``;
``pwscup.kinds.bundles``).

The settings are what an organizer sets in the console's round wizard and edit form: the
configuration (``Round.config``, as checked against the original), the data mode, the
ranking rules, the range rule and the published sample size (optional: an older bundle
has neither), and both phases (windows as offsets from the competition's start, limits,
leaderboard visibility); never the round's state (freeze, publication, targets, samples,
the secret seed). The one file is ``original.csv``: the original in UTF-8, as it is scored
and served. An original uploaded in another encoding is also kept as uploaded
(``Round.original_source``); the bundle leaves that copy out: it records one upload of the
old competition, plays no part in the game, and the new round converts nothing.

The import goes through ``console_round_create``, the service of the console's wizard,
so the original and the settings meet every check a new round meets there.
"""

from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

import scoring
from pwscup.competitions.models import Phase
from pwscup.core.errors import scoring_errors_by, scoring_form_error
from pwscup.core.form_fields import POSITIVE_INT_MAX
from pwscup.core.stored import stored_bytes
from pwscup.kinds.bundle_anchor import phases_offsets
from pwscup.kinds.bundles import (
    BundleChecks,
    RoundBundle,
    flag_check,
    schedule_offsets,
    setting_required,
    setting_type_error,
    settings_known,
    settings_object,
    window_at_offsets,
)
from pwscup.pwscup2015.console.services import console_round_create
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.services.rounds import (
    RULE_FIELDS,
    round_data_check,
    round_settings_check,
)

ORIGINAL = "original.csv"
PHASE_KEYS = ("opens_at", "closes_at", "daily_limit", "total_limit", "leaderboard_public")
# Optional: a bundle written before the limit per target has none (no limit).
TARGET_LIMIT = "target_limit"
CHOICES = {
    "data_mode": Pwscup2015Round.DataMode,
    "ranking_rule": Pwscup2015Round.RankingRule,
    "selection_rule": Pwscup2015Round.SelectionRule,
    "attack_visibility": Pwscup2015Round.AttackVisibility,
}
COUNTS = ("sample_size", "decoy_count")
FLAGS = ("auto_freeze", "allow_attack_before_close")
SETTINGS_KEYS = ("config", *CHOICES, *COUNTS, "utility_gates", "tie_break_metric", *FLAGS, "phases")
# Optional: a bundle written before them has no range rule and publishes every row.
OPTIONAL_KEYS = ("value_ranges", "published_rows")


# The windows of the ``phases`` setting, where an import of some rounds puts its start
# (``RoundKind.bundle_schedule``).
bundle_schedule = phases_offsets


def round_bundle(round, *, anchor, options=None):
    game = round.pwscup2015
    # In the order the phases run (``Phase.Kind``), as planned (``planned_window``: not
    # cut short by *Close now* or the publication); a phase closed before it opened with no
    # plan kept gets a length and moves the next one (``schedule_offsets``).
    by_kind = {phase.kind: phase for phase in round.phases.all()}
    phases = {kind: by_kind[kind] for kind in Phase.Kind.values if kind in by_kind}
    plans = {kind: phase.planned_window() for kind, phase in phases.items()}
    windows = dict(zip(phases, schedule_offsets(list(plans.values()), anchor), strict=True))
    anonymization, attack = plans.get(Phase.Kind.ANONYMIZATION), plans.get(Phase.Kind.ATTACK)
    settings = {
        "config": round.config,
        "data_mode": game.data_mode,
        "sample_size": game.sample_size,
        "decoy_count": game.decoy_count,
        "utility_gates": game.utility_gates,
        "value_ranges": game.value_ranges,
        "published_rows": game.published_rows,
        "tie_break_metric": game.tie_break_metric,
        "ranking_rule": game.ranking_rule,
        "selection_rule": game.selection_rule,
        "attack_visibility": game.attack_visibility,
        "auto_freeze": game.auto_freeze,
        # The wizard's explicit consent to overlapping phases (the demo's rounds have them).
        "allow_attack_before_close": bool(
            anonymization and attack and attack[0] < anonymization[1]
        ),
        "phases": {
            kind: {
                "opens_at": windows[kind][0],
                "closes_at": windows[kind][1],
                "daily_limit": phase.daily_limit,
                "total_limit": phase.total_limit,
                TARGET_LIMIT: phase.target_limit,
                "leaderboard_public": phase.leaderboard_public,
            }
            for kind, phase in phases.items()
        },
    }
    return RoundBundle(settings=settings, files={ORIGINAL: stored_bytes(round.original_file)})


def _count(value, *, path: str, minimum: int) -> None:
    if value is None or (
        isinstance(value, int)
        and not isinstance(value, bool)
        and minimum <= value <= POSITIVE_INT_MAX
    ):
        return
    raise setting_type_error(
        path,
        value,
        _("a whole number from %(min)s to %(max)s, or null")
        % {"min": minimum, "max": POSITIVE_INT_MAX},
    )


def _settings_read(settings: dict, checks: BundleChecks) -> dict:
    """The settings' types and choices (what the console's forms enforce before its
    services run), refused with the words every kind uses (``pwscup.kinds.bundles``), every
    refusal kept in ``checks``; the values read (a missing or a refused key is absent)."""
    checks.run(settings_known, settings, (*SETTINGS_KEYS, *OPTIONAL_KEYS), "settings")
    for key in SETTINGS_KEYS:
        checks.run(setting_required, settings, key, "settings")
    values = {key: settings[key] for key in SETTINGS_KEYS if key in settings}
    values["value_ranges"] = settings.get("value_ranges") or {}
    values["published_rows"] = settings.get("published_rows")
    kept = {key: checks.run(_value_check, key, value) for key, value in values.items()}
    return {key: value for key, value in values.items() if kept[key]}


def _value_check(key: str, value) -> bool:
    """Refuse the setting ``key``'s ``value`` of the wrong type or choice; ``True`` if kept."""
    if key in CHOICES and value not in CHOICES[key].values:
        raise setting_type_error(
            key, value, _("one of %(choices)s") % {"choices": ", ".join(CHOICES[key].values)}
        )
    if key in COUNTS or key == "published_rows":
        _count(value, path=key, minimum=1 if key == "published_rows" else 0)
    if key in FLAGS:
        flag_check(value, path=key)
    if key in ("config", "utility_gates", "value_ranges"):
        settings_object(value, key)
    if key == "tie_break_metric" and not isinstance(value, str):
        raise setting_type_error(key, value, _("text"))
    return True


def _phases(raw, start, entry) -> dict:
    """``{kind: phase_set keyword arguments}`` with the times ``start`` plus the offsets,
    every phase checked (each refusal kept)."""
    phases = settings_object(raw, "phases")
    checks = BundleChecks()
    checks.run(settings_known, phases, Phase.Kind.values, "phases")
    result = {
        kind: checks.run(_phase_read, phase, f"phases.{kind}", start, entry, kind=kind)
        for kind, phase in phases.items()
        if kind in Phase.Kind.values
    }
    checks.done()
    return result


def _phase_read(phase, path: str, start, entry, *, kind: str) -> dict:
    phase = settings_object(phase, path)
    checks = BundleChecks()
    checks.run(settings_known, phase, (*PHASE_KEYS, TARGET_LIMIT), path)
    for key in PHASE_KEYS:
        checks.run(setting_required, phase, key, path)
    for key in ("daily_limit", "total_limit", TARGET_LIMIT):
        checks.run(_count, phase.get(key), path=f"{path}.{key}", minimum=1)
    if "leaderboard_public" in phase:
        checks.run(flag_check, phase["leaderboard_public"], path=f"{path}.leaderboard_public")
    window = checks.run(
        window_at_offsets, phase, start, path=path, entry=entry, phase=Phase.Kind(kind).label
    )
    checks.done()
    return {
        "opens_at": window[0],
        "closes_at": window[1],
        "daily_limit": phase["daily_limit"],
        "total_limit": phase["total_limit"],
        "target_limit": phase.get(TARGET_LIMIT),
        "leaderboard_public": phase["leaderboard_public"],
    }


def _settings_key(key: str) -> str:
    """The console services' error keys as the settings name them (``attack_opens_at`` →
    ``phases.attack.opens_at``)."""
    for kind in Phase.Kind.values:
        for name in ("opens_at", "closes_at"):
            if key == f"{kind}_{name}":
                return f"phases.{kind}.{name}"
    return key


def _config_path(error) -> str:
    """Where in the settings an error of the configuration lies: its key's path
    (``config.qi``, ``config.domains.Age``, ``config.indicators.l``), else ``config``."""
    key = error.params.get("key")
    return f"config.{key}" if key else "config"


def round_from_bundle(*, competition, entry, start, user):
    """Create the round through ``console_round_create`` (the wizard's service), its phases
    ``start`` plus the bundle's offsets. Raises ``ValidationError`` keyed by the settings'
    path (``data_mode``, ``phases.attack.closes_at``, ``config.domains.Age``) or the file's
    role (``original.csv``): every error of the keys, the types, the phases, the settings'
    rules (``round_settings_check``, once the values it reads are right), the file and the
    configuration against the original at once (``BundleChecks``); the gates and ranges
    against the checked configuration once they all pass."""
    checks = BundleChecks()  # every independent check runs; one answer names every error
    settings = _settings_read(settings_object(entry.settings, "settings"), checks)
    phases = checks.run(_phases, settings["phases"], start, entry) if "phases" in settings else None
    if not checks.failed:  # the rules between settings need every one of them read
        checks.run(_rules_checked, settings, phases, entry.basics(competition))
    checks.run(_files_checked, entry.files)
    if "config" in settings and ORIGINAL in entry.files:
        checks.run(_config_checked, entry.files[ORIGINAL], settings["config"])
    checks.done()
    try:
        return console_round_create(
            user=user,
            basics=entry.basics(competition),
            original=entry.files[ORIGINAL],
            original_filename=ORIGINAL,
            config=settings["config"],
            data={key: settings[key] for key in ("data_mode", *COUNTS)},
            phases=phases,
            rules={key: settings[key] for key in RULE_FIELDS},
            allow_attack_before_close=settings["allow_attack_before_close"],
        )
    except ValidationError as error:
        raise _rekeyed(error) from None
    except scoring.ConfigError as error:
        raise scoring_errors_by(error, _config_path) from None
    except scoring.ScoringError as error:
        raise scoring_form_error(ORIGINAL, error) from None


def _files_checked(files) -> None:
    if set(files) != {ORIGINAL}:
        raise ValidationError(
            {
                "files": _("a round of this kind has exactly one file, %(file)s.")
                % {"file": ORIGINAL}
            }
        )


def _rules_checked(settings: dict, phases: dict, basics) -> None:
    """The settings' rules (``round_settings_check``: the service's, every error it finds)."""
    try:
        round_settings_check(
            slug=basics.slug,
            competition=basics.competition,
            timezone=basics.time_zone(),
            utility_gates=settings["utility_gates"],
            value_ranges=settings["value_ranges"],
            published_rows=settings["published_rows"],
            tie_break_metric=settings["tie_break_metric"],
            data_mode=settings["data_mode"],
            sample_size=settings["sample_size"],
            phases={kind: (v["opens_at"], v["closes_at"]) for kind, v in phases.items()},
            allow_attack_before_close=settings["allow_attack_before_close"],
        )
    except ValidationError as error:
        raise _rekeyed(error) from None


def _config_checked(original: bytes, config: dict) -> None:
    """The configuration against the original (``round_data_check``, the service's)."""
    try:
        round_data_check(original=original, config_raw=config)
    except scoring.ConfigError as error:
        raise scoring_errors_by(error, _config_path) from None
    except scoring.ScoringError as error:
        raise scoring_form_error(ORIGINAL, error) from None


def _rekeyed(error: ValidationError) -> ValidationError:
    if not hasattr(error, "error_dict"):
        return error
    return ValidationError(
        {_settings_key(key): messages for key, messages in error.message_dict.items()}
    )
