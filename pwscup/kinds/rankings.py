"""What a round kind declares of its rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``; ``pwscup.competitions.standings``).

A round ranks teams in one or more rankings (the 2015 game's anonymization and attack
rankings, the DP overall rank sum, the synthetic release and attack rankings). The
standings combine chosen rankings of chosen rounds; a kind says which it has (always) and
gives their rows once the round's results are published (never before: a ranking not yet
published is *pending* in the standings, never zero).
"""

import math
from dataclasses import dataclass
from operator import attrgetter

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class RankingKey:
    """One ranking a round has: ``key`` (a short slug stored in the standings' settings and
    bundles: ``"anonymization"``, ``"attack"``, ``"release"``, ``"overall"``), its label
    (lazy translated) and the direction of its score (``higher_is_better``)."""

    key: str
    label: str
    higher_is_better: bool


# The two rankings of a game of releases and attacks on them (the synthetic, sequential and
# scorer rounds; the 2015 game's attack ranking): the releases by the attacks they suffered
# (lower is better) and the attackers by their score (higher is better). A kind whose scores
# run the other way declares them with ``dataclasses.replace``.
RELEASE = RankingKey("release", _("Release ranking"), higher_is_better=False)
ATTACK = RankingKey("attack", _("Attack ranking"), higher_is_better=True)


@dataclass(frozen=True)
class RankingRow:
    """A team's row of a published ranking: the team (its ``Team``), its rank (``None``:
    listed without a rank, a failed gate or no attack) and the score the ranking orders by
    (``None``: none)."""

    team: object
    rank: int | None
    score: float | None

    @property
    def team_id(self) -> int:
        return self.team.pk


@dataclass(frozen=True)
class RoundRanking:
    """A published ranking: its declaration and rows. A disqualified team has no row (the
    kind drops it, ``pwscup.accounts.selectors.DisqualificationRule``)."""

    declared: RankingKey
    rows: tuple[RankingRow, ...]

    @property
    def key(self) -> str:
        return self.declared.key


def ranking_rows(
    rows, *, score, team=attrgetter("team"), rank=attrgetter("rank")
) -> tuple[RankingRow, ...]:
    """``RankingRow`` s from a kind's own ranking rows: ``score(row)`` the score it orders by,
    ``team(row)`` the team and ``rank(row)`` its rank (by default the row's ``team`` and
    ``rank``, as every kind's ranking rows name them)."""
    out = []
    for row in rows:
        value = score(row)
        out.append(
            RankingRow(
                team=team(row),
                rank=rank(row),
                score=None if value is None else float(value),
            )
        )
    return tuple(out)


def score_number(value) -> float | None:
    """A score as a round total's formula reads it (``RoundKind.named_scores``): a finite
    float, or ``None`` (none, not a number, NaN or infinite)."""
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return number if math.isfinite(number) else None


@dataclass(frozen=True)
class AttackCells:
    """A round's attack matrix as the core's top-N rule reads it (``RoundKind.attack_cells``;
    ``pwscup.competitions.attack_top``).

    ``releases``: ``(team id, rank)`` of every release in the round's release ranking (rank
    ``None``: listed without a rank). ``cells``: target team id -> attacker team id -> the
    number the kind's own attack ranking averages for that attacker on that target (a
    target the attacker did not attack holds what the kind counts for it, e.g. 0, or is
    missing when the kind does not count it). Only attackers the kind's attack ranking
    ranks appear (a disqualified team does not). ``higher_is_better``: the attack score's
    direction."""

    releases: tuple[tuple[int, int | None], ...]
    cells: dict
    higher_is_better: bool = True
