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
from pwscup.kinds.bundles import (
    RoundBundle,
    schedule_offsets,
    setting_required,
    setting_type_error,
    settings_known,
    settings_object,
    window_at_offsets,
)
from pwscup.pwscup2015.console.services import console_round_create
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.services.rounds import RULE_FIELDS

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


def _flag(value, *, path: str) -> None:
    if not isinstance(value, bool):
        raise setting_type_error(path, value, _("true or false"))


def _settings_read(settings) -> dict:
    """The settings' types and choices (what the console's forms enforce before its
    services run), refused with the words every kind uses (``pwscup.kinds.bundles``)."""
    settings_object(settings, "settings")
    settings_known(settings, (*SETTINGS_KEYS, *OPTIONAL_KEYS), "settings")
    values = {key: setting_required(settings, key, "settings") for key in SETTINGS_KEYS}
    values["value_ranges"] = settings.get("value_ranges") or {}
    values["published_rows"] = settings.get("published_rows")
    for key, choices in CHOICES.items():
        if values[key] not in choices.values:
            raise setting_type_error(
                key, values[key], _("one of %(choices)s") % {"choices": ", ".join(choices.values)}
            )
    for key in COUNTS:
        _count(values[key], path=key, minimum=0)
    for key in FLAGS:
        _flag(values[key], path=key)
    settings_object(values["config"], "config")
    settings_object(values["utility_gates"], "utility_gates")
    settings_object(values["value_ranges"], "value_ranges")
    _count(values["published_rows"], path="published_rows", minimum=1)
    if not isinstance(values["tie_break_metric"], str):
        raise setting_type_error("tie_break_metric", values["tie_break_metric"], _("text"))
    phases = settings_object(values["phases"], "phases")
    settings_known(phases, Phase.Kind.values, "phases")
    for kind, phase in phases.items():
        path = f"phases.{kind}"
        settings_object(phase, path)
        settings_known(phase, (*PHASE_KEYS, TARGET_LIMIT), path)
        for key in PHASE_KEYS:
            setting_required(phase, key, path)
        for key in ("daily_limit", "total_limit", TARGET_LIMIT):
            _count(phase.get(key), path=f"{path}.{key}", minimum=1)
        _flag(phase["leaderboard_public"], path=f"{path}.leaderboard_public")
    return values


def _phases(phases: dict, start, entry) -> dict:
    """``{kind: phase_set keyword arguments}`` with the times ``start`` plus the offsets."""
    errors, result = {}, {}
    for kind, values in phases.items():
        times = {}
        try:
            times["opens_at"], times["closes_at"] = window_at_offsets(
                values, start, path=f"phases.{kind}", entry=entry, phase=Phase.Kind(kind).label
            )
        except ValidationError as error:
            errors.update(error.message_dict)
        result[kind] = {
            **times,
            "daily_limit": values["daily_limit"],
            "total_limit": values["total_limit"],
            "target_limit": values.get(TARGET_LIMIT),
            "leaderboard_public": values["leaderboard_public"],
        }
    if errors:
        raise ValidationError(errors)
    return result


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
    settings = entry.settings
    if set(entry.files) != {ORIGINAL}:
        raise ValidationError(
            {
                "files": _("a round of this kind has exactly one file, %(file)s.")
                % {"file": ORIGINAL}
            }
        )
    settings = _settings_read(settings)
    phases = _phases(settings["phases"], start, entry)
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
        if not hasattr(error, "error_dict"):
            raise
        raise ValidationError(
            {_settings_key(key): messages for key, messages in error.message_dict.items()}
        ) from None
    except scoring.ConfigError as error:
        raise scoring_errors_by(error, _config_path) from None
    except scoring.ScoringError as error:
        raise scoring_form_error(ORIGINAL, error) from None
