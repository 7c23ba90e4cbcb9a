"""The demo's sequential rounds: the paper's persons, and a generated per-team round whose
teams B and C published every release with the kit's baseline publisher (m-invariant)."""

import pytest

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.competitions.services import competition_create
from pwscup.sequential import demo, selectors
from pwscup.sequential.models import Release

pytestmark = pytest.mark.django_db


def test_demo_rounds_are_playable_and_the_baseline_releases_are_m_invariant():
    organizer = user_create(username="seqdemo-org", password="pw")
    competition = competition_create(name="Demo", slug="seqdemo", organizers=[organizer])
    for letter in "ABC":
        team = team_create(competition=competition, name=f"Team {letter}", slug=f"team{letter}")
        member = user_create(username=f"seqdemo-{letter}", password="pw")
        membership_add(team=team, user=member)
    paper, generated = demo.demo_load(competition, organizer=organizer)
    assert paper.masters.get().persons == 16 and paper.masters.get().team is None
    assert selectors.open_steps(sequential=paper) == [1]
    assert generated.masters.count() == 3  # one drawn per team
    assert selectors.open_steps(sequential=generated) == [1, 2, 3, 4]  # batch mode
    releases = Release.objects.filter(sequential=generated)
    assert not releases.filter(team__slug="teamA").exists()  # team A plays
    for slug in demo.BASELINE_TEAMS:
        theirs = releases.filter(team__slug=slug).order_by("step")
        assert [r.step for r in theirs] == [1, 2, 3, 4]
        assert all(r.status == Release.Status.FINISHED for r in theirs), theirs[0].message
        last = theirs.last().results
        assert last["MINV"] >= 2 and last["RA_max"] <= 0.5 + 1e-9  # P2: A is held at 1/m
