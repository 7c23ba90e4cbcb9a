"""Teams registering at the same moment in a per-team round: each registration draws every
team's missing sample, serialised by the round's row lock (real PostgreSQL transactions in
threads, each with its own connection)."""

import threading
import time

import pytest
from django.db import connections

import scoring
from pwscup.accounts.services import team_create, user_create
from pwscup.pwscup2015.models import TeamDataset

TEAMS = 6


@pytest.mark.django_db(transaction=True)
def test_simultaneous_registrations_each_get_one_distinct_sample(make_world, monkeypatch):
    world = make_world(slug="drawrace", data_mode="per_team")
    captains = [
        user_create(username=f"drawrace-captain-{i}", password="pw-Secret-123")
        for i in range(TEAMS)
    ]
    draw = scoring.draw_sample

    def slow_draw(*args, **kwargs):
        # Widen the window between "this team has no sample" and the insert: without the
        # round's lock, the registrations draw the same teams' samples at once.
        time.sleep(0.2)
        return draw(*args, **kwargs)

    monkeypatch.setattr(scoring, "draw_sample", slow_draw)
    start = threading.Barrier(TEAMS)
    errors, created = [], []

    def register(index: int) -> None:
        try:
            start.wait()
            created.append(
                team_create(
                    competition=world.competition,
                    name=f"Racer {index}",
                    captain=captains[index],
                ).pk
            )
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
    datasets = list(TeamDataset.objects.filter(round=world.round))
    teams = [d.team_id for d in datasets]
    assert sorted(teams) == sorted([*(t.pk for t in world.teams.values()), *created])
    samples = {tuple(d.sample_index) for d in datasets}
    assert len(samples) == len(datasets)
    assert all(d.rows == 60 and len(set(d.sample_index)) == 60 for d in datasets)
