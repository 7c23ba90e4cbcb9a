"""The scorer round's rankings for the competition's standings
(``RoundKind.ranking_keys`` / ``published_rankings``): the release ranking and the attack
ranking under the round's own rules (``selectors.standings``), once its results are
published; a disqualified team has no row."""

from django.utils.translation import gettext_lazy as _

from pwscup.kinds.rankings import RankingKey, RoundRanking, ranking_rows
from pwscup.scorer import selectors


def _keys(round_) -> tuple[RankingKey, RankingKey]:
    """The two rankings; each score's direction is the round's (the release ranking orders
    by the primary release score, the attack ranking by the attackers' power)."""
    config = selectors.round_config(round_)
    return (
        RankingKey(
            "release",
            _("Release ranking"),
            higher_is_better=config.release_primary_column.higher_is_better,
        ),
        RankingKey(
            "attack",
            _("Attack ranking"),
            higher_is_better=config.attack_primary_column.higher_is_better,
        ),
    )


def ranking_keys(round_) -> list[RankingKey]:
    return list(_keys(round_))


def published_rankings(round_) -> list[RoundRanking]:
    scorer = selectors.scorer_of(round_)
    if scorer is None or not scorer.results_published:
        return []
    board = selectors.standings(scorer=scorer)
    release_key, attack_key = _keys(round_)
    team, rank = (lambda row: row.team), (lambda row: row.rank)
    releases = [row for row in board.releases if not row.disqualified]
    attackers = [row for row in board.attackers if not row.disqualified]
    return [
        RoundRanking(
            release_key, ranking_rows(releases, team=team, rank=rank, score=lambda r: r.primary)
        ),
        RoundRanking(
            attack_key, ranking_rows(attackers, team=team, rank=rank, score=lambda r: r.power)
        ),
    ]
