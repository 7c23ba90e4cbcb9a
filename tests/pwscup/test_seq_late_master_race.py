"""Teams registering at the same moment after a sequential round's per-team masters were
drawn: each registration draws every missing master from what the pool has left, serialised
by the round's row lock (real PostgreSQL transactions in threads, each with its own
connection)."""

import pytest

from pwscup.accounts.services import user_create
from pwscup.sequential import engine
from tests.pwscup.races import register_at_once, slow_down
from tests.pwscup.test_seq_web_late_masters import pids_of, pool_world

TEAMS = 4


@pytest.mark.django_db(transaction=True)
def test_simultaneous_late_registrations_each_get_one_distinct_master(monkeypatch):
    world = pool_world("seqrace", persons=1000)
    captains = [user_create(username=f"seqrace-{i}", password="pw") for i in range(TEAMS)]
    slow_down(monkeypatch, engine, "masters_draw")
    created, errors = register_at_once(world.competition, captains)
    assert errors == []
    assert len(created) == TEAMS
    masters = list(world.sequential.masters.all())
    assert sorted(m.team_id for m in masters) == sorted(
        [*(t.pk for t in world.teams.values()), *created]
    )
    seen = set()
    for master in masters:
        pids = pids_of(master)
        assert not (pids & seen)
        seen |= pids
