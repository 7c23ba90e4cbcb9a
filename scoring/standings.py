"""Competition standings: how the rankings of several rounds (a preliminary and a final)
combine into one order. Pure functions; the platform gathers each round's ranks and scores.

Each round counts with a weight ``w`` and one or more of its rankings (its release and
attack rankings, its overall ranking). Three rules, as PWSCup editions used them
(spec/pwscup-editions.md):

* ``WEIGHTED_SCORE``: ``Σ_r w_r · Σ_k score_{r,k}``, the scores as the rounds give them
  (2024, 2025: ``0.1·pre + 0.9·main`` of the total score). Better in the rankings' own
  direction, so every ranking it combines must point the same way (the caller checks).
  Scores are not normalised: a rule that rescales them would be ours, not an edition's.
* ``WEIGHTED_RANK``: ``Σ_r w_r · Σ_k rank_{r,k}``, lower is better (2023: ranks 9:1).
* ``INVERSE_RANK_SUM``: ``Σ_r w_r / Σ_k rank_{r,k}``, higher is better (2020: the inverse
  of the sum of the two phases' ranks, preliminary:final = 1:9).

A team with no rank in a counted ranking (a failed gate, no attack, absent from the round)
gets no combined value: it is listed after the ranked teams, with no rank, as every
ranking of the platform lists its unranked rows. Equal combined values (rounded to
``DIGITS`` decimals, so that ``0.1·3 + 0.9·1`` equals ``0.9·1 + 0.1·3``) share a rank:
``scoring.ranking.competition_ranks`` (1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scoring.ranking import competition_ranks

WEIGHTED_SCORE = "weighted_score"
WEIGHTED_RANK = "weighted_rank"
INVERSE_RANK_SUM = "inverse_rank_sum"
RULES = (WEIGHTED_SCORE, WEIGHTED_RANK, INVERSE_RANK_SUM)
DIGITS = 9


@dataclass(frozen=True)
class Place:
    """A team's place in one counted ranking: its rank (``None``: unranked) and score."""

    rank: int | None
    score: float | None


def combined_value(rule: str, rounds: Sequence[tuple[float, Sequence[Place]]]) -> float | None:
    """The team's combined value from ``(weight, places)`` per round (``places``: the team's
    place in each counted ranking of that round); ``None`` when a place is unranked. Rounded
    to ``DIGITS`` decimals, the precision the ranks compare at, so that no float noise
    (``0.1·3 + 0.9·4`` = 3.9000000000000004) reaches a page, a CSV or the API.

    Examples
    --------
    >>> two = [(0.1, [Place(3, 0.5)]), (0.9, [Place(1, 0.8)])]
    >>> combined_value(WEIGHTED_RANK, two)
    1.2
    >>> combined_value(WEIGHTED_SCORE, two)
    0.77
    >>> combined_value(INVERSE_RANK_SUM, [(1, [Place(2, None), Place(3, None)])])
    0.2
    >>> combined_value(WEIGHTED_RANK, [(1, [Place(None, 0.1)])]) is None
    True
    """
    if rule not in RULES:
        raise ValueError(f"unknown rule {rule!r}: expected one of {', '.join(RULES)}")
    total = 0.0
    for weight, places in rounds:
        if any(place.rank is None for place in places):
            return None
        if rule == WEIGHTED_SCORE:
            if any(place.score is None for place in places):
                return None
            total += weight * sum(place.score for place in places)
        elif rule == WEIGHTED_RANK:
            total += weight * sum(place.rank for place in places)
        else:
            total += weight / sum(place.rank for place in places)
    return round(total, DIGITS)


def higher_is_better(rule: str, *, scores_higher: bool = True) -> bool:
    """Whether a higher combined value is better (``scores_higher``: the direction of the
    scores a weighted score combines)."""
    if rule == WEIGHTED_SCORE:
        return scores_higher
    return rule == INVERSE_RANK_SUM


def standings_ranks(
    values: Iterable[tuple[str, float | None]], *, higher: bool
) -> list[tuple[int | None, str, float | None]]:
    """``(name, value)`` pairs in rank order with their ranks; ``None`` values last, unranked.

    >>> standings_ranks([("b", 0.5), ("a", 0.5), ("c", None), ("d", 1.0)], higher=True)
    [(1, 'd', 1.0), (2, 'a', 0.5), (2, 'b', 0.5), (None, 'c', None)]
    """
    by_name = sorted(values, key=lambda item: item[0])

    def key(item):
        value = item[1]
        if value is None:
            return 0.0
        value = round(value, DIGITS)
        return -value if higher else value

    ordered = competition_ranks(by_name, key=key, ranked=lambda item: item[1] is not None)
    return [(rank, name, value) for rank, (name, value) in ordered]
