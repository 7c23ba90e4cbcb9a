"""The sequential round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``): the leaderboard over the frozen
releases (safety, lower is better) and, with an attack phase, the attack ranking (mean
accuracy, higher is better), from the round's own selectors once its results are published."""

from django.utils.translation import gettext_lazy as _

from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows
from pwscup.sequential import selectors
from pwscup.sequential.models import SequentialRound

RELEASE = RankingKey("release", _("Release ranking"), higher_is_better=False)
ATTACK = RankingKey("attack", _("Attack ranking"), higher_is_better=True)


def ranking_keys(round) -> list[RankingKey]:
    sequential = SequentialRound.objects.filter(round=round).first()
    if sequential is not None and sequential.config.get("attack_phase"):
        return [RELEASE, ATTACK]
    return [RELEASE]


def published_rankings(round) -> list[RoundRanking]:
    sequential = SequentialRound.objects.filter(round=round, results_published=True).first()
    if sequential is None:
        return []
    sequential = selectors.sequential_of(round=round)
    board = selectors.leaderboard_rows(sequential=sequential)
    rankings = [
        RoundRanking(
            RELEASE,
            ranking_rows(
                board, team=lambda r: r.team, rank=lambda r: r.rank, score=lambda r: r.safety
            ),
        )
    ]
    if sequential.config.get("attack_phase"):
        attack = selectors.attack_ranking(sequential=sequential)
        rankings.append(
            RoundRanking(
                ATTACK,
                ranking_rows(
                    attack,
                    team=lambda r: r["team"],
                    rank=lambda r: r["rank"],
                    score=lambda r: r["mean"],
                ),
            )
        )
    return rankings
