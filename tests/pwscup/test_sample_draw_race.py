"""Teams registering at the same moment in a per-team round: each registration draws every
team's missing sample, serialised by the round's row lock (real PostgreSQL transactions in
threads, each with its own connection)."""

import pytest

import scoring
from pwscup.accounts.services import user_create
from pwscup.pwscup2015.models import TeamDataset
from tests.pwscup.races import register_at_once, slow_down

TEAMS = 6


@pytest.mark.django_db(transaction=True)
def test_simultaneous_registrations_each_get_one_distinct_sample(make_world, monkeypatch):
    world = make_world(slug="drawrace", data_mode="per_team")
    captains = [
        user_create(username=f"drawrace-captain-{i}", password="pw-Secret-123")
        for i in range(TEAMS)
    ]
    slow_down(monkeypatch, scoring, "draw_sample")
    created, errors = register_at_once(world.competition, captains)
    assert errors == []
    assert len(created) == TEAMS
    datasets = list(TeamDataset.objects.filter(round=world.round))
    teams = [d.team_id for d in datasets]
    assert sorted(teams) == sorted([*(t.pk for t in world.teams.values()), *created])
    samples = {tuple(d.sample_index) for d in datasets}
    assert len(samples) == len(datasets)
    assert all(d.rows == 60 and len(set(d.sample_index)) == 60 for d in datasets)
