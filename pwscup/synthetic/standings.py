"""The synthetic round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``): the release ranking (the highest
attack headline reached, lower is better) and the attack ranking (mean headline, higher is
better) on the final half, from the round's own selectors once its results are published."""

from django.utils.translation import gettext_lazy as _

from pwscup.kinds import rankings
from pwscup.kinds.rankings import AttackCells, RankingKey, RoundRanking, score_number
from pwscup.submissions.attack_matrix import matrix_attack_cells
from pwscup.submissions.kind_rankings import dict_ranking_rows, ranked_named_scores
from pwscup.synthetic import selectors

FINAL = "final"


def ranking_keys(round) -> list[RankingKey]:
    return [rankings.RELEASE, rankings.ATTACK]


def published_rankings(round) -> list[RoundRanking]:
    synthetic = selectors.synthetic_of(round)
    if synthetic is None or not synthetic.results_published:
        return []
    results = selectors.round_results(synthetic=synthetic, half=FINAL)
    return [
        RoundRanking(rankings.RELEASE, dict_ranking_rows(results.releases, score="worst")),
        RoundRanking(rankings.ATTACK, dict_ranking_rows(results.attacks, score="mean")),
    ]


def named_scores(round) -> dict:
    """The final half's numbers a round total may name: the release's utilities ``u_ml`` and
    ``u_1``, its ``privacy`` (the highest attack headline reached on it, the release
    ranking's score) and the team's ``attack`` score (mean headline)."""
    synthetic = selectors.synthetic_of(round)
    if synthetic is None:
        return {"names": [], "teams": {}}
    results = selectors.round_results(synthetic=synthetic, half=FINAL)
    teams: dict[int, dict] = {}
    for row in results.releases:
        teams[row["team"].pk] = {
            "u_ml": score_number(row["u_ml"]),
            "u_1": score_number(row["u_1"]),
            "privacy": score_number(row["worst"]),
        }
    for row in results.attacks:
        teams.setdefault(row["team"].pk, {})["attack"] = score_number(row["mean"])
    return ranked_named_scores(round, names=score_names(round), teams=teams)


def score_names(round) -> list[dict]:
    if selectors.synthetic_of(round) is None:
        return []
    return [
        {"key": "u_ml", "label": "U_ML"},
        {"key": "u_1", "label": "U_1"},
        {"key": "privacy", "label": str(_("Privacy (highest attack reached, lower is better)"))},
        {"key": "attack", "label": str(_("Attack score (mean headline)"))},
    ]


def attack_cells(round) -> AttackCells | None:
    """The final half's matrix for the core's top-N attack score: each ranked attacker's
    headline on every other team's target, the built-in DCR attack's where it did not
    attack (as its attack ranking's mean counts it), and the release ranking's order."""
    synthetic = selectors.synthetic_of(round)
    if synthetic is None:
        return AttackCells(releases=(), cells={})
    results = selectors.round_results(synthetic=synthetic, half=FINAL)
    return matrix_attack_cells(
        results.matrix,
        attacks=results.attacks,
        releases=((row["team"].pk, row["rank"]) for row in results.releases),
    )
