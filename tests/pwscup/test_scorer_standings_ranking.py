"""The scorer round's rankings as the competition's standings read them: the release
ranking's score is the number the round ranks its releases by (PWSCup 2021 ranked the
anonymizations by the worst danger any attacker reached on them, not by their utility)."""

import pytest

from pwscup.scorer import selectors, services
from pwscup.scorer.standings import published_rankings, ranking_keys
from tests.pwscup.scorer_world import (
    CONFIG,
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
)

pytestmark = pytest.mark.django_db


def _published(world):
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=5, seed=1))
    targets = attack_phase(world)
    attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
    attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    world.scorer.refresh_from_db()
    services.results_publish(scorer=world.scorer, user=world.organizer)
    world.scorer.refresh_from_db()
    return selectors.standings(scorer=world.scorer)


def test_a_round_ranked_by_protection_gives_the_standings_its_protection():
    world = scorer_world(slug="ssp", letters="ab", config={**CONFIG, "release_rank": "protection"})
    board = _published(world)
    protection = {row.team.pk: row.protection for row in board.releases}
    utility = {row.team.pk: row.primary for row in board.releases}
    assert protection[world.teams["a"].pk] > protection[world.teams["b"].pk]  # a is found more
    assert utility[world.teams["a"].pk] > utility[world.teams["b"].pk]  # and keeps more
    ranking = published_rankings(world.round)[0]
    assert ranking.key == "release"
    assert {row.team.pk: row.rank for row in ranking.rows} == {
        world.teams["b"].pk: 1,
        world.teams["a"].pk: 2,
    }
    assert {row.team.pk: row.score for row in ranking.rows} == protection
    # Lower protection (a lower best re-identification) is better, as the ranking reads it.
    assert ranking_keys(world.round)[0].higher_is_better is False


def test_a_round_ranked_by_the_primary_score_gives_the_standings_that_score():
    world = scorer_world(slug="ssq", letters="ab")
    board = _published(world)
    ranking = published_rankings(world.round)[0]
    assert {row.team.pk: row.score for row in ranking.rows} == {
        row.team.pk: row.primary for row in board.releases
    }
    assert ranking_keys(world.round)[0].higher_is_better is True
