"""The sequential round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``): the leaderboard over the frozen
releases (safety, lower is better) and, with an attack phase, the attack ranking (mean
accuracy, higher is better), from the round's own selectors once its results are published."""

from django.utils.translation import gettext_lazy as _

from pwscup.kinds import rankings
from pwscup.kinds.rankings import (
    AttackCells,
    RankingKey,
    RoundRanking,
    ranking_rows,
    score_number,
)
from pwscup.sequential import selectors
from pwscup.submissions.attack_matrix import matrix_attack_cells
from pwscup.submissions.kind_rankings import dict_ranking_rows, ranked_named_scores


def ranking_keys(round) -> list[RankingKey]:
    sequential = selectors.sequential_or_none(round=round)
    if sequential is not None and sequential.config.get("attack_phase"):
        return [rankings.RELEASE, rankings.ATTACK]
    return [rankings.RELEASE]


def published_rankings(round) -> list[RoundRanking]:
    sequential = selectors.sequential_or_none(round=round)
    if sequential is None or not sequential.results_published:
        return []
    board = selectors.leaderboard_rows(sequential=sequential)
    published = [RoundRanking(rankings.RELEASE, ranking_rows(board, score=lambda r: r.safety))]
    if sequential.config.get("attack_phase"):
        attack = selectors.attack_ranking(sequential=sequential)
        published.append(RoundRanking(rankings.ATTACK, dict_ranking_rows(attack, score="mean")))
    return published


def named_scores(round) -> dict:
    """The leaderboard's columns a round total may name (``RN_max``, ``IL``... as the
    leaderboard heads them, over the frozen releases), the team's ``safety`` and, with an
    attack phase, its ``attack`` score (mean accuracy)."""
    sequential = selectors.sequential_or_none(round=round)
    if sequential is None:
        return {"names": [], "teams": {}}
    teams: dict[int, dict] = {}
    for row in selectors.leaderboard_rows(sequential=sequential):
        values = {key: score_number(row.results.get(key)) for key in selectors.BOARD_METRICS}
        teams[row.team.pk] = {**values, "safety": score_number(row.safety)}
    if sequential.config.get("attack_phase"):
        for row in selectors.attack_ranking(sequential=sequential):
            teams.setdefault(row["team"].pk, {})["attack"] = score_number(row["mean"])
    return ranked_named_scores(round, names=score_names(round), teams=teams)


def score_names(round) -> list[dict]:
    sequential = selectors.sequential_or_none(round=round)
    if sequential is None:
        return []
    names = [{"key": key, "label": key} for key in selectors.BOARD_METRICS]
    names.append({"key": "safety", "label": str(_("Safety (the release ranking's score)"))})
    if sequential.config.get("attack_phase"):
        names.append({"key": "attack", "label": str(_("Attack score (mean accuracy)"))})
    return names


def attack_cells(round) -> AttackCells | None:
    """The attack matrix for the core's top-N attack score (a round with an attack phase):
    each ranked attacker's best accuracy on every other team's target, 0 where it did not
    attack (as its attack ranking's mean counts it), and the leaderboard's order."""
    sequential = selectors.sequential_or_none(round=round)
    if sequential is None or not sequential.config.get("attack_phase"):
        return None
    board = selectors.leaderboard_rows(sequential=sequential)
    return matrix_attack_cells(
        selectors.attack_matrix(sequential=sequential),
        attacks=selectors.attack_ranking(sequential=sequential),
        releases=((row.team.pk, row.rank) for row in board),
    )
