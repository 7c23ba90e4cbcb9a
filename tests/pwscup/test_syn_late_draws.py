"""Teams joining a synthetic round late get their own draw from what the others left (spec
§1), also when they register at the same moment (real PostgreSQL transactions in threads,
serialised by the round's row lock); a team's draw never changes once made."""

import pytest

from pwscup.accounts.services import team_create, user_create
from pwscup.synthetic.models import TeamDraw
from pwscup.synthetic.services import draws as draws_module
from tests.pwscup.races import register_at_once, slow_down
from tests.pwscup.syn_world import syn_world

TEAMS = 4


def _rows(draw: TeamDraw) -> set[int]:
    return set(draw.members) | set(draw.nonmembers)


@pytest.mark.django_db
def test_a_late_team_draws_from_what_is_left_and_nothing_else_changes():
    world = syn_world(letters="ab")
    before = {d.team_id: (d.members, d.challenge, d.labels) for d in TeamDraw.objects.all()}
    captain = user_create(username="syn-late", password="pw")
    late = team_create(competition=world.competition, name="Late", captain=captain)
    draws = {d.team_id: d for d in TeamDraw.objects.filter(synthetic=world.synthetic)}
    assert late.pk in draws, "the late team got no draw when it registered"
    for team_id, kept in before.items():
        assert (draws[team_id].members, draws[team_id].challenge, draws[team_id].labels) == kept
    others = set().union(*(_rows(d) for t, d in draws.items() if t != late.pk))
    assert not _rows(draws[late.pk]) & others
    assert not _rows(draws[late.pk]) & set(world.synthetic.holdout + world.synthetic.aux)


@pytest.mark.django_db(transaction=True)
def test_simultaneous_registrations_each_get_one_distinct_draw(monkeypatch):
    world = syn_world(slug="synrace", letters="a")
    captains = [user_create(username=f"synrace-{i}", password="pw") for i in range(TEAMS)]
    slow_down(monkeypatch, draws_module, "draw_team")
    created, errors = register_at_once(world.competition, captains)
    assert errors == []
    assert len(created) == TEAMS
    draws = list(TeamDraw.objects.filter(synthetic=world.synthetic))
    assert sorted(d.team_id for d in draws) == sorted([world.teams["a"].pk, *created])
    seen: set[int] = set()
    for draw in draws:
        assert not _rows(draw) & seen
        seen |= _rows(draw)
