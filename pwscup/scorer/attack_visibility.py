"""What a reader sees of an attack's scores: exact, a band or hidden while the results are not
published, as the round's ``visibility`` says (``attack_scores_for``: the one owner of the
rule for pages, API answers, exports and notifications; ``selectors`` offers it)."""

from pwscup.scorer.models import Attack, ScorerRound
from pwscup.scorer.score_text import format_score
from scoring.scorer.matrix import band, band_label
from scoring.scorer.round_config import ScorerRoundConfig, parse_round_config


def attack_visibility(*, scorer: ScorerRound, is_organizer: bool) -> str:
    """How much of an attack's scores its own team sees now: ``exact``, ``band`` or
    ``hidden`` while the results are not published (the round's setting); everything once
    they are, and always for the organizers."""
    if is_organizer or scorer.results_published:
        return "exact"
    return parse_round_config(scorer.round.config or {}).visibility


def shown_value(value, *, visibility: str, bands) -> dict:
    """One score as a reader may see it: ``{"value": number | None, "text": str}``."""
    if value is None:
        return {"value": None, "text": "—"}
    if visibility == "exact":
        return {"value": value, "text": format_score(value)}
    if visibility == "band":
        return {"value": None, "text": band_label(band(value, bands), bands)}
    return {"value": None, "text": "…"}


def attack_scores_for(attack: Attack, *, visibility: str, config: ScorerRoundConfig) -> dict:
    """The attack's scores as the reader may see them, by key: the one owner of the
    visibility rule for pages, API answers, exports and notifications."""
    return {
        key: shown_value(attack.scores.get(key), visibility=visibility, bands=config.bands)
        for key in [column.key for column in config.attack_columns]
        if key in attack.scores
    }
