"""A 2015 round's data and settings: the original and its configuration checked by
``scoring``, the gates, the phases (the attack phase after the anonymization phase), and
the creation service every entry point calls (console, admin, commands, demo)."""

import hashlib
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

import scoring
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.organizer_files import round_original_save
from pwscup.competitions.services import (
    phase_window_check,
    round_basics_errors,
    round_of_kind_create,
)
from pwscup.core.files import OrganizerCsv, organizer_csv
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015 import KEY
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.pwscup2015.ranking import GateError, indicator_gates_check, parse_gates
from pwscup.pwscup2015.value_ranges import RangeError, parse_value_ranges

#: The round's rules kept in ``Pwscup2015Round``: what ``console_round_create`` takes as
#: ``rules``, what the console's edit page changes and what the admin's form edits besides
#: the data settings.
RULE_FIELDS = (
    "utility_gates",
    "value_ranges",
    "published_rows",
    "tie_break_metric",
    "ranking_rule",
    "selection_rule",
    "attack_visibility",
    "auto_freeze",
)


@dataclass(frozen=True)
class CheckedRoundData:
    sha256: str
    rows: int
    config: dict
    csv: OrganizerCsv | None = None


def round_data_check(*, original: bytes, config_raw) -> CheckedRoundData:
    """Check an original table (as uploaded, in UTF-8 or converted to it: ``organizer_csv``)
    and a round configuration together; ``sha256`` is the UTF-8 copy's.

    Raises ``scoring.ScoringError`` (its message names the key, column or row at fault, or
    the likely encoding of a file whose encoding is not sure).
    """
    csv = organizer_csv(original, name="original")
    table = scoring.read_table(csv.utf8, name="original")
    # Which columns hold integers is decided here, once, on the round's original (the
    # master table in the per-team mode), and stored with the configuration.
    config = scoring.decide_integer_columns(scoring.load_config(config_raw, table), table)
    scoring.validate_original(table, config)
    return CheckedRoundData(
        sha256=hashlib.sha256(csv.utf8).hexdigest(),
        rows=len(table),
        config=config.to_dict(),
        csv=csv,
    )


def round_settings_check(
    *,
    timezone: str,
    utility_gates,
    tie_break_metric: str,
    data_mode: str = Pwscup2015Round.DataMode.SHARED,
    sample_size: int | None = None,
    phases: dict | None = None,
    allow_attack_before_close: bool = False,
    slug: str | None = None,
    competition: Competition | None = None,
    current: Round | None = None,
    config: dict | None = None,
    value_ranges=None,
    published_rows: int | None = None,
) -> None:
    """Check a round's settings; the one check of the admin, the console, the commands and
    the demo.

    With ``slug`` (the round's address) and ``competition``, ``slug_check`` checks the
    address in that competition (``current``: the round being edited).

    With ``config`` (the round configuration as stored), gates on the indicators L1, L2,
    L3 and T are refused unless it has an ``indicators`` block, and a value range of a
    column it does not have is refused (``value_ranges``: the range rule).

    ``published_rows``: the size of each target's published sample (``None``: all rows).

    ``phases`` maps a phase kind to its ``(opens_at, closes_at)``: each closes after it
    opens, and the attack phase opens only once the anonymization phase has closed (its
    targets are published then) unless ``allow_attack_before_close``. Errors are keyed
    ``<kind>_opens_at`` / ``<kind>_closes_at``.

    Raises ``django.core.exceptions.ValidationError`` mapping each field at fault to a
    message that names the value and what is expected.
    """
    errors = _phases_errors(
        phases or {}, allow_attack_before_close=allow_attack_before_close, time_zone=timezone
    )
    errors.update(
        round_basics_errors(
            competition=competition,
            slug=slug if competition is not None else None,
            timezone=timezone,
            current=current,
        )
    )
    try:
        parse_gates(utility_gates)
        if config is not None:
            indicator_gates_check(utility_gates, config)
    except GateError as error:
        errors["utility_gates"] = str(error)
    try:
        columns = config.get("columns") if config is not None else None
        parse_value_ranges(value_ranges, columns=columns)
    except RangeError as error:
        errors["value_ranges"] = str(error)
    if published_rows is not None and (
        isinstance(published_rows, bool)
        or not isinstance(published_rows, int)
        or published_rows < 1
    ):
        errors["published_rows"] = _(
            "Published rows must be a whole number of at least 1 (empty: every row), not %(value)s."
        ) % {"value": repr(published_rows)[:80]}
    if tie_break_metric not in scoring.METRICS:
        errors["tie_break_metric"] = _(
            "Unknown tie-break metric %(value)s: choose one of %(m)s."
        ) % {
            "value": repr(tie_break_metric)[:80],
            "m": ", ".join(scoring.METRICS),
        }
    if data_mode == Pwscup2015Round.DataMode.PER_TEAM and not sample_size:
        errors["sample_size"] = _("The per-team mode needs a sample size.")
    if errors:
        raise ValidationError(errors)


# How the console's forms name each phase date (``dates_check`` messages name the field).
PHASE_DATE_LABELS = {
    Phase.Kind.ANONYMIZATION: {
        "opens_at": gettext_lazy("Anonymization phase opens"),
        "closes_at": gettext_lazy("Anonymization phase closes"),
    },
    Phase.Kind.ATTACK: {
        "opens_at": gettext_lazy("Attack phase opens"),
        "closes_at": gettext_lazy("Attack phase closes"),
    },
}


def round_phases_check(
    *, phases: dict, allow_attack_before_close: bool = False, time_zone=None
) -> None:
    """The phases' check of ``round_settings_check`` alone (each window, and the attack phase
    after the anonymization phase's close unless ``allow_attack_before_close``): what an edit
    of a round's phases (``console_round_update``, the admin's phases) must pass. Raises
    ``ValidationError`` keyed ``<kind>_opens_at`` / ``<kind>_closes_at``."""
    errors = _phases_errors(
        phases, allow_attack_before_close=allow_attack_before_close, time_zone=time_zone
    )
    if errors:
        raise ValidationError(errors)


def _phases_errors(phases: dict, *, allow_attack_before_close: bool, time_zone=None) -> dict:
    errors = {}
    for kind, (opens_at, closes_at) in phases.items():
        try:
            phase_window_check(
                opens_at=opens_at,
                closes_at=closes_at,
                time_zone=time_zone,
                labels=PHASE_DATE_LABELS.get(kind),
            )
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                errors[f"{kind}_{field}"] = messages[0]
    anonymization = phases.get(Phase.Kind.ANONYMIZATION)
    attack = phases.get(Phase.Kind.ATTACK)
    if anonymization and attack and not allow_attack_before_close:
        if attack[0] is not None and anonymization[1] is not None and attack[0] < anonymization[1]:
            errors.setdefault(
                "attack_opens_at",
                _(
                    "The attack phase opens at %(attack)s, before the anonymization phase "
                    "closes (%(closes)s): attackers need the published targets. Open it at "
                    "or after that time, or allow it explicitly."
                )
                % {
                    "attack": attack[0].isoformat(timespec="minutes"),
                    "closes": anonymization[1].isoformat(timespec="minutes"),
                },
            )
    return errors


@transaction.atomic
def round_create(
    *,
    basics: RoundBasics,
    original: bytes,
    original_filename: str,
    config_raw,
    data_mode: str = Pwscup2015Round.DataMode.SHARED,
    sample_size: int | None = None,
    decoy_count: int | None = None,
    **options,
) -> Round:
    """Create a 2015 round with its ``basics`` (``round_of_kind_create``'s): its settings
    checked (``round_settings_check``), its original checked against its configuration
    (``round_data_check``) and kept, its game row with ``options`` (the rules, the seed)."""
    round_settings_check(
        slug=basics.slug,
        competition=basics.competition,
        timezone=basics.time_zone(),
        utility_gates=options.get("utility_gates", {}),
        tie_break_metric=options.get("tie_break_metric", "U1"),
        data_mode=data_mode,
        sample_size=sample_size,
        value_ranges=options.get("value_ranges", {}),
        published_rows=options.get("published_rows"),
    )
    checked = round_data_check(original=original, config_raw=config_raw)
    try:
        indicator_gates_check(options.get("utility_gates", {}), checked.config)
    except GateError as error:
        raise ValidationError({"utility_gates": str(error)}) from None
    try:
        parse_value_ranges(options.get("value_ranges", {}), columns=checked.config["columns"])
    except RangeError as error:
        raise ValidationError({"value_ranges": str(error)}) from None
    game_fields = {field.name for field in Pwscup2015Round._meta.get_fields()}
    game_options = {key: value for key, value in options.items() if key in game_fields}
    round_ = round_of_kind_create(
        basics=basics,
        kind=KEY,
        config=checked.config,
        original_rows=checked.rows,
        **{key: value for key, value in options.items() if key not in game_fields},
    )
    round_original_save(round=round_, csv=checked.csv, filename=original_filename)
    Pwscup2015Round.objects.create(
        round=round_,
        data_mode=data_mode,
        sample_size=sample_size,
        decoy_count=decoy_count,
        **game_options,
    )
    return round_
