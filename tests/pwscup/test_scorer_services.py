"""The round scored by the organizer's program, through its services (the jobs run here as the
worker runs them; the sandbox is the real bubblewrap): a release scored to the last digit, the
freeze, attacks per target, the matrix and the rankings."""

import pytest

from pwscup.scorer import selectors
from pwscup.scorer.models import Release
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
)

pytestmark = pytest.mark.django_db


def test_a_release_is_scored_by_the_program_and_an_attack_fills_the_matrix():
    world = scorer_world()
    assert world.program.status == "finished", world.program.message
    clean = release(world, "a", release_bytes(noise=0))
    noisy = release(world, "b", release_bytes(noise=20, seed=1))
    assert clean.status == Release.Status.FINISHED, clean.message
    assert clean.scores["utility"] == 100.0
    assert 0 < noisy.scores["utility"] < 100.0
    assert clean.program_id == world.program.pk
    assert clean.public_names == ["release.csv"]
    targets = attack_phase(world)
    assert set(targets) == {"teama", "teamb"}
    hit = attack(world, "b", guess_bytes(targets["teama"]), target=targets["teama"])
    assert hit.status == "finished", hit.message
    assert hit.scores["reidentified"] == 1.0
    miss = attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
    assert miss.scores["reidentified"] < 1.0
    board = selectors.standings(scorer=world.scorer)
    assert board.matrix == {
        "teama": {"teamb": 1.0},
        "teamb": {"teama": miss.scores["reidentified"]},
    }
    ranks = {row.team.slug: row.rank for row in board.releases}
    assert ranks == {"teama": 1, "teamb": 2}
    powers = {row.team.slug: row.power for row in board.attackers}
    assert powers == {"teamb": 1.0, "teama": miss.scores["reidentified"]}


def test_a_refused_release_keeps_the_programs_message():
    world = scorer_world(slug="sco2", letters="a")
    bad = release(world, "a", b"id,age\np0001,3\n")
    assert bad.status == Release.Status.FAILED
    assert bad.message_text if hasattr(bad, "message_text") else bad.message
    assert bad.message
