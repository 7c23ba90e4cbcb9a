"""The standings of a round whose attack ranking is its attack matrix's
(``pwscup.submissions.attack_matrix``: the sequential and synthetic rounds), declared once.
The kind says how it reads its part of the round, its release ranking and its matrix, and
which of a release's numbers a round total may name; ``TwoSidedStandings`` answers the
functions of its ``standings`` module (``RoundKind.ranking_keys``, ``published_rankings``,
``named_scores``, ``score_names``, ``attack_cells``) the same way for every such kind."""

from collections.abc import Callable
from dataclasses import dataclass
from operator import attrgetter

from pwscup.kinds import rankings
from pwscup.kinds.rankings import (
    AttackCells,
    RankingKey,
    RoundRanking,
    ranking_rows,
    score_number,
)
from pwscup.submissions.attack_matrix import (
    AttackMatrix,
    matrix_attack_cells,
    matrix_attack_ranking,
)
from pwscup.submissions.kind_rankings import dict_ranking_rows, ranked_named_scores


@dataclass(frozen=True)
class ReleaseStanding:
    """A team's row of the round's release ranking as the standings read it: the team, its
    rank (``None``: listed without one), the score the ranking orders by and the numbers a
    round total may name, by their keys (the attack score is the core's, ``attack``)."""

    team: object
    rank: int | None
    score: float | None
    numbers: dict


@dataclass(frozen=True)
class TwoSidedResults:
    """What the standings read of a round at once: its release ranking and its attack matrix
    (``None``: the round has no attack ranking), which the core ranks
    (``matrix_attack_ranking``)."""

    releases: list[ReleaseStanding]
    matrix: AttackMatrix | None = None

    def attacks(self) -> list[dict]:
        return [] if self.matrix is None else matrix_attack_ranking(self.matrix)


@dataclass(frozen=True)
class TwoSidedStandings:
    """A kind's rankings for the competition's standings, declared in its ``standings``
    module (``ranking_keys = STANDINGS.ranking_keys``, ...):

    * ``part(round)``: the kind's part of the round (``None``: none, nothing ranked);
    * ``results(part)``: its ``TwoSidedResults``, those the published rankings show (a
      round's final half);
    * ``names``: the release's numbers a round total may name, ``(key, label)`` in order
      (labels lazy: said in the reader's language), before the attack score ``attack``
      (``attack_label``);
    * ``attacked(part)``: whether the round has an attack ranking (``None``: always, read
      without the part).

    A ranking is given once the part's results are published (``results_published``); the
    names, the numbers and the matrix whether or not they are."""

    part: Callable
    results: Callable
    names: tuple
    attack_label: str
    attacked: Callable | None = None

    def _attacked(self, part) -> bool:
        return self.attacked is None or (part is not None and self.attacked(part))

    def ranking_keys(self, round) -> list[RankingKey]:
        attacked = self.attacked is None or self._attacked(self.part(round))
        return [rankings.RELEASE, rankings.ATTACK] if attacked else [rankings.RELEASE]

    def published_rankings(self, round) -> list[RoundRanking]:
        part = self.part(round)
        if part is None or not part.results_published:
            return []
        results = self.results(part)
        release_rows = ranking_rows(results.releases, score=attrgetter("score"))
        published = [RoundRanking(rankings.RELEASE, release_rows)]
        if results.matrix is not None:
            attack_rows = dict_ranking_rows(results.attacks(), score="mean")
            published.append(RoundRanking(rankings.ATTACK, attack_rows))
        return published

    def named_scores(self, round) -> dict:
        """The numbers of each team's release (``ReleaseStanding.numbers``) and its attack
        score (``attack``: its mean in the attack ranking); a disqualified team's left out."""
        part = self.part(round)
        if part is None:
            return {"names": [], "teams": {}}
        results = self.results(part)
        teams: dict[int, dict] = {}
        for row in results.releases:
            teams[row.team.pk] = {key: score_number(v) for key, v in row.numbers.items()}
        for row in results.attacks():
            teams.setdefault(row["team"].pk, {})["attack"] = score_number(row["mean"])
        return ranked_named_scores(round, names=self.score_names(round), teams=teams)

    def score_names(self, round) -> list[dict]:
        part = self.part(round)
        if part is None:
            return []
        names = [*self.names, ("attack", self.attack_label)] if self._attacked(part) else self.names
        return [{"key": key, "label": str(label)} for key, label in names]

    def attack_cells(self, round) -> AttackCells | None:
        """The matrix for the core's top-N attack score: each ranked attacker's number on
        every other team's target (what its attack ranking's mean counts where it did not
        attack), and the release ranking's order; ``None`` for a round without an attack
        ranking (``ranking_keys``)."""
        part = self.part(round)
        if not self._attacked(part):
            return None
        if part is None:
            return AttackCells(releases=(), cells={})
        results = self.results(part)
        return matrix_attack_cells(
            results.matrix,
            attacks=results.attacks(),
            releases=((row.team.pk, row.rank) for row in results.releases),
        )
