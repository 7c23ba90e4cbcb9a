"""Fixtures for the platform tests: a small round on the first rows of the Adult fixture."""

import datetime as dt
from dataclasses import dataclass

import pytest
from django.utils import timezone

from tests.support import (  # noqa: F401 - re-exported for the tests
    adult_config,
    adult_head,
    csv_upload,
    noisy_copy,
    table_bytes,
    wait_for,
)


@dataclass
class World:
    competition: object
    round: object
    anonymization: object
    attack: object
    teams: dict
    users: dict
    organizer: object
    original: bytes


@pytest.fixture
def make_world(db):
    from pwscup.accounts.services import membership_add, team_create, user_create
    from pwscup.competitions.models import Phase, Round
    from pwscup.competitions.services import competition_create, phase_set, round_create
    from pwscup.submissions.services import round_assign_samples

    def build(
        *,
        data_mode=Round.DataMode.SHARED,
        slug="cup",
        anonymization_open=True,
        attack_open=True,
        daily_limit=None,
        total_limit=None,
        **round_options,
    ) -> World:
        now = timezone.now()
        organizer = user_create(username=f"{slug}-organizer", password="pw-organizer")
        competition = competition_create(name=f"Cup {slug}", slug=slug, organizers=[organizer])
        original = adult_head()
        extra = (
            {"sample_size": 60, "decoy_count": 40} if data_mode == Round.DataMode.PER_TEAM else {}
        )
        extra.update(round_options)
        round_ = round_create(
            competition=competition,
            name="Round",
            slug="r1",
            original=original,
            original_filename="adult_head.csv",
            config_raw=adult_config(),
            data_mode=data_mode,
            **extra,
        )
        hour = dt.timedelta(hours=1)
        anonymization = phase_set(
            round=round_,
            kind=Phase.Kind.ANONYMIZATION,
            opens_at=now - hour if anonymization_open else now - 3 * hour,
            closes_at=now + hour if anonymization_open else now - 2 * hour,
            daily_limit=daily_limit,
            total_limit=total_limit,
        )
        attack = phase_set(
            round=round_,
            kind=Phase.Kind.ATTACK,
            opens_at=now - hour if attack_open else now + hour,
            closes_at=now + 2 * hour if attack_open else now + 3 * hour,
        )
        teams, users = {}, {}
        for letter in "abc":
            team = team_create(
                competition=competition, name=f"Team {letter.upper()}", slug=f"team{letter.upper()}"
            )
            user = user_create(username=f"{slug}-team-{letter}", password="pw")
            membership_add(team=team, user=user)
            teams[letter], users[letter] = team, user
        round_assign_samples(round=round_)
        return World(competition, round_, anonymization, attack, teams, users, organizer, original)

    return build


@pytest.fixture
def world(make_world):
    return make_world()
