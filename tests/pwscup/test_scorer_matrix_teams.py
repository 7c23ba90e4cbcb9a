"""The scorer round's attack ranking names its attackers among the round's own teams: a team
slug is unique within a competition only, so an attacker without a target of its own (it
released nothing) is never taken for another competition's team of the same slug."""

import pytest

from pwscup.accounts.services import team_create, user_create
from pwscup.competitions.services import competition_create
from pwscup.scorer import selectors
from pwscup.scorer.models import Attack, Release, Target
from pwscup.submissions.models import Status
from tests.pwscup.scorer_world import scorer_world

pytestmark = pytest.mark.django_db


def test_an_attacker_without_a_target_is_the_rounds_own_team():
    # Another competition, older (the teams are listed newest competition first), with a team
    # of C's slug.
    other = user_create(username="elsewhere-organizer", password="pw")
    elsewhere = competition_create(name="Elsewhere", slug="elsewhere", organizers=[other])
    team_create(competition=elsewhere, name="Elsewhere C", slug="teamc")
    world = scorer_world(slug="scoteams", letters="abc", build=False)
    released = Release.objects.create(
        scorer=world.scorer,
        team=world.teams["a"],
        number=1,
        status=Status.FINISHED,
        scores={"utility": 90.0},
    )
    target = Target.objects.create(scorer=world.scorer, team=world.teams["a"], release=released)
    Attack.objects.create(
        scorer=world.scorer,
        team=world.teams["c"],
        target=target,
        number=1,
        status=Status.FINISHED,
        scores={"reidentified": 0.5},
    )

    board = selectors.standings(scorer=world.scorer)

    assert [(row.team.pk, row.team.name) for row in board.attackers] == [
        (world.teams["c"].pk, "Team C")
    ]
    assert board.attackers[0].power == 0.5
