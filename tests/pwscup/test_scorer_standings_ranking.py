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


def test_a_release_failing_a_gate_has_no_rank_in_the_standings_nor_among_the_top_n():
    """PWSCup 2021: a release failing a gate (there: Umark, OR, cor, Iloss) is no valid
    anonymization. The round lists it after the passing ones, but the standings must not
    rank it (docs: "a failed gate" is unranked, so the team has no combined value) — else
    its low danger, reached only because its release is not a valid one, wins a weighted
    sum of scores — and it must not be one of the top N releases the attack score counts."""
    from pwscup.competitions.attack_top import attack_top_scores

    config = {**CONFIG, "release_rank": "protection", "gates": [{"key": "utility", "min": 99}]}
    world = scorer_world(slug="ssg", letters="abc", config=config)
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=40, seed=1))  # fails the gate
    release(world, "c", release_bytes(noise=0))
    targets = attack_phase(world)
    for attacker, target in (("a", "teamb"), ("a", "teamc"), ("c", "teama"), ("c", "teamb")):
        attack(world, attacker, guess_bytes(targets[target]), target=targets[target])
    world.scorer.refresh_from_db()
    services.results_publish(scorer=world.scorer, user=world.organizer)
    board = selectors.standings(scorer=world.scorer)
    failing = {row.team.pk for row in board.releases if row.failed_gates}
    assert failing == {world.teams["b"].pk}
    # The round's own table still lists b after the passing releases, with a rank.
    assert {row.team.pk: row.rank for row in board.releases}[world.teams["b"].pk] == 3
    ranking = published_rankings(world.round)[0]
    ranks = {row.team.pk: row.rank for row in ranking.rows}
    assert ranks[world.teams["b"].pk] is None
    assert ranks[world.teams["a"].pk] is not None and ranks[world.teams["c"].pk] is not None
    # Top 3 by the release ranking: the two passing releases only, never b's.
    world.round.attack_top_n = 3
    world.round.save(update_fields=["attack_top_n"])
    scores = attack_top_scores(world.round)
    assert scores[world.teams["a"].pk] == pytest.approx(board.matrix["teamc"]["teama"])
