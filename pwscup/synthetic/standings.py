"""The synthetic round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``): the release ranking (the highest
attack headline reached, lower is better) and the attack ranking (mean headline, higher is
better) on the final half, from the round's own selectors once its results are published."""

from django.utils.translation import gettext_lazy as _

from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows
from pwscup.synthetic import selectors

RELEASE = RankingKey("release", _("Release ranking"), higher_is_better=False)
ATTACK = RankingKey("attack", _("Attack ranking"), higher_is_better=True)
FINAL = "final"


def ranking_keys(round) -> list[RankingKey]:
    return [RELEASE, ATTACK]


def published_rankings(round) -> list[RoundRanking]:
    synthetic = selectors.synthetic_of(round)
    if synthetic is None or not synthetic.results_published:
        return []
    matrix = selectors.attack_matrix(synthetic=synthetic, half=FINAL)
    release = selectors.release_ranking(synthetic=synthetic, half=FINAL, matrix=matrix)
    attack = selectors.attack_ranking(synthetic=synthetic, half=FINAL, matrix=matrix)
    team, rank = (lambda r: r["team"]), (lambda r: r["rank"])
    return [
        RoundRanking(
            RELEASE, ranking_rows(release, team=team, rank=rank, score=lambda r: r["worst"])
        ),
        RoundRanking(ATTACK, ranking_rows(attack, team=team, rank=rank, score=lambda r: r["mean"])),
    ]
