"""The 2015 round's rankings for the competition's standings (``RoundKind.ranking_keys`` /
``published_rankings``): the final ranking's two tables, read from the leaderboards' own
cached selector once the results are published."""

from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.competitions.selectors import round_metrics
from pwscup.kinds import rankings
from pwscup.kinds.rankings import (
    AttackCells,
    RankingKey,
    RoundRanking,
    ranking_rows,
    score_number,
)
from pwscup.pwscup2015.leaderboards import selectors as leaderboards
from pwscup.pwscup2015.leaderboards.matrix import attack_matrix_cached
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.submissions.kind_rankings import ranked_named_scores

ANONYMIZATION = RankingKey("anonymization", _("Anonymization ranking"), higher_is_better=False)


def ranking_keys(round) -> list[RankingKey]:
    return [ANONYMIZATION, rankings.ATTACK]


def published_rankings(round) -> list[RoundRanking]:
    # Read the flag, not ``round.pwscup2015``: a round object kept across the publication
    # (an operation run by the worker) holds the state it was loaded with.
    if not Pwscup2015Round.objects.filter(round=round, results_published=True).exists():
        return []
    anonymization, attack = leaderboards.final_ranking_cached(round=round)
    return [
        RoundRanking(ANONYMIZATION, ranking_rows(anonymization, score=lambda r: r.safety)),
        RoundRanking(rankings.ATTACK, ranking_rows(attack, score=lambda r: r.mean_rate)),
    ]


def named_scores(round) -> dict:
    """The final ranking's numbers a round total may name: each metric of the final ranking's
    table (``U1``... ``EUC2``, and ``L1``... when the round has indicators: ``round_metrics``,
    whether or not a team has uploaded) of the team's final anonymization, its final
    ``safety`` (the ranking's score) and its ``attack`` score (mean best rate over the
    others' targets)."""
    anonymization, attack = leaderboards.final_ranking_cached(round=round)
    metrics = round_metrics(round=round)
    teams: dict[int, dict] = {}
    for row in anonymization:
        values = {metric: score_number(row.scores.get(metric)) for metric in metrics}
        teams[row.team.pk] = {**values, "safety": score_number(row.safety)}
    for row in attack:
        teams.setdefault(row.team.pk, {})["attack"] = score_number(row.mean_rate)
    return ranked_named_scores(round, names=score_names(round, metrics), teams=teams)


def score_names(round, metrics=None) -> list[dict]:
    """``metrics``: the round's (``round_metrics``), when the caller read them already."""
    metrics = round_metrics(round=round) if metrics is None else metrics
    names = [{"key": m, "label": f"{m} ({scoring.METRIC_NAMES[m]})"} for m in metrics]
    return [
        *names,
        {"key": "safety", "label": str(_("Safety (final ranking)"))},
        {"key": "attack", "label": str(_("Attack score (mean best rate)"))},
    ]


def attack_cells(round) -> AttackCells:
    """The final ranking's matrix for the core's top-N attack score: each ranked attacker's
    best rate on every other team's target, 0 where it did not attack (as its attack
    ranking's mean counts it), and the anonymization ranking's order."""
    anonymization, attack = leaderboards.final_ranking_cached(round=round)
    matrix = attack_matrix_cached(round=round)
    attackers = [row.team.pk for row in attack if row.rank is not None]
    cells = {
        target.team_id: {
            attacker: matrix.cell(f"team:{attacker}", target.pk).best or 0.0
            for attacker in attackers
            if attacker != target.team_id
        }
        for target in matrix.targets
    }
    return AttackCells(
        releases=tuple((row.team.pk, row.rank) for row in anonymization), cells=cells
    )
