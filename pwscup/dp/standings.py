"""The DP round's ranking for the competition's standings (``RoundKind.ranking_keys`` /
``published_rankings``): the overall ranking (sum of the per-level ranks, lower is better),
the leaderboard's own, once the results are final."""

from django.utils.translation import gettext_lazy as _

from pwscup.dp.archive import results_final
from pwscup.dp.models import DPRound
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows

OVERALL = RankingKey("overall", _("Overall ranking (sum of the levels' ranks)"), False)


def ranking_keys(round) -> list[RankingKey]:
    return [OVERALL]


def published_rankings(round) -> list[RoundRanking]:
    dp_round = DPRound.objects.filter(round=round).select_related("round").first()
    if dp_round is None or not results_final(dp_round):
        return []
    rows = overall_ranking(level_boards(dp_round=dp_round))
    return [
        RoundRanking(
            OVERALL,
            ranking_rows(
                rows, team=lambda r: r.team, rank=lambda r: r.rank, score=lambda r: r.total
            ),
        )
    ]
