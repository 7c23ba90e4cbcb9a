"""A scorer round's scores and gates as a reader reads them (no database): the one rule of
every kind's tables for a score (``scoring.display.format_figure``), a gate's bound as the
organizer wrote it, and a failed gate named by its score's label in the reader's language.
The API's numbers, the CSV exports and the archive keep the program's values exactly."""

from django.utils.translation import gettext

from pwscup.core.languages import in_reader_language
from scoring.display import format_cell
from scoring.scorer.round_config import ScorerRoundConfig


def format_score(value) -> str:
    """A score as the pages and the API's ``scores_text`` show it: a number the program wrote
    as an integer is a count and stays one (``12``: how many records it re-identified), any
    other number has 4 decimals by the one rule of every kind's tables
    (``scoring.display.format_figure``: ``1.0000`` beside ``0.5000``). The API's numbers, the
    CSV exports and the archive keep the program's values exactly."""
    return format_cell(value)


def format_bound(value) -> str:
    """A gate's bound as the organizer wrote it (``utility ≥ 50``, ``≤ 0.25``): a setting,
    not a score. The round's rules keep every bound as a float, so a whole number (the form's
    50, the bundle's 50.0) reads without a fraction."""
    number = float(value)
    return str(int(number)) if number.is_integer() else repr(number)


def gate_text(gate: dict, *, config: ScorerRoundConfig) -> str:
    """A failed gate as a reader reads it: its score's label in the reader's language, the
    bound and its value as the organizer wrote it (``Information loss ≤ 6``); the score's key
    when no release column has it."""
    labels = {c.key: in_reader_language(c.label, c.label_ja) for c in config.release_columns}
    bound = "≥" if "min" in gate else "≤"
    limit = gate.get("min", gate.get("max"))
    return f"{labels.get(gate['key']) or gate['key']} {bound} {format_bound(limit)}"


def attack_counts_text(config: ScorerRoundConfig) -> str:
    """Which of a team's attacks counts (the round's ``attack_counts``), as the Rules tab,
    the Submit tab and the round status (``pwscup status``) say it."""
    if config.attack_counts == "last":
        return gettext(
            "A team never attacks its own release; on each target, the team's newest scored "
            "attack on it counts (its earlier ones no longer do)."
        )
    if config.attack_counts == "chosen":
        return gettext(
            "A team never attacks its own release; on each target, the scored attack the "
            "team registered (“Make it the one that counts”) counts, else its newest scored "
            "attack on it."
        )
    return gettext(
        "A team never attacks its own release; the best of a team's scored attacks on a "
        "target counts."
    )
