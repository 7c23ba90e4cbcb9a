"""Teams registering at the same moment after a sequential round's per-team masters were
drawn: each registration draws every missing master from what the pool has left, serialised
by the round's row lock (real PostgreSQL transactions in threads, each with its own
connection)."""

import threading
import time

import pytest
from django.db import connections

from pwscup.accounts.services import team_create, user_create
from pwscup.sequential import engine
from tests.pwscup.test_seq_web_late_masters import pids_of, pool_world

TEAMS = 4


@pytest.mark.django_db(transaction=True)
def test_simultaneous_late_registrations_each_get_one_distinct_master(monkeypatch):
    world = pool_world("seqrace", persons=1000)
    captains = [user_create(username=f"seqrace-{i}", password="pw") for i in range(TEAMS)]
    draw = engine.masters_draw

    def slow_draw(*args, **kwargs):
        # Widen the window between "these teams have no master" and the inserts: without
        # the round's lock, the registrations draw the same teams' masters at once.
        time.sleep(0.2)
        return draw(*args, **kwargs)

    monkeypatch.setattr(engine, "masters_draw", slow_draw)
    start = threading.Barrier(TEAMS)
    errors, created = [], []

    def register(index: int) -> None:
        try:
            start.wait()
            team = team_create(
                competition=world.competition, name=f"Racer {index}", captain=captains[index]
            )
            created.append(team.pk)
        except Exception as error:  # noqa: BLE001 - every failure is the finding
            errors.append(repr(error))
        finally:
            connections.close_all()

    threads = [threading.Thread(target=register, args=(i,)) for i in range(TEAMS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
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
