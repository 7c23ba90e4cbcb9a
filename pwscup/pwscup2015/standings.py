"""The 2015 round's rankings for the competition's standings (``RoundKind.ranking_keys`` /
``published_rankings``): the final ranking's two tables, read from the leaderboards' own
cached selector once the results are published."""

from django.utils.translation import gettext_lazy as _

from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows
from pwscup.pwscup2015.leaderboards import selectors as leaderboards
from pwscup.pwscup2015.models import Pwscup2015Round

ANONYMIZATION = RankingKey("anonymization", _("Anonymization ranking"), higher_is_better=False)
ATTACK = RankingKey("attack", _("Attack ranking"), higher_is_better=True)


def ranking_keys(round) -> list[RankingKey]:
    return [ANONYMIZATION, ATTACK]


def published_rankings(round) -> list[RoundRanking]:
    # Read the flag, not ``round.pwscup2015``: a round object kept across the publication
    # (an operation run by the worker) holds the state it was loaded with.
    if not Pwscup2015Round.objects.filter(round=round, results_published=True).exists():
        return []
    anonymization, attack = leaderboards.final_ranking_cached(round=round)
    team, rank = (lambda row: row.team), (lambda row: row.rank)
    return [
        RoundRanking(
            ANONYMIZATION,
            ranking_rows(anonymization, team=team, rank=rank, score=lambda r: r.safety),
        ),
        RoundRanking(
            ATTACK, ranking_rows(attack, team=team, rank=rank, score=lambda r: r.mean_rate)
        ),
    ]
