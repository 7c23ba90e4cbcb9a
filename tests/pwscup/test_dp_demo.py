"""The DP demo rounds (spec §10.1, §10.2) added by ``load_demo``."""

import pytest

from pwscup.competitions.services import competition_create
from pwscup.dp import engine
from pwscup.dp.demo import dp_demo_load
from tests.pwscup.dp_world import MOVIELENS_Z

ADULT_SEX_AGEBAND = [
    186,
    2322,
    2800,
    2409,
    1006,
    831,
    1217,
    209,
    2853,
    5679,
    5742,
    2293,
    2142,
    2872,
]


@pytest.mark.django_db
def test_demo_adds_the_adult_round_and_the_movielens_practice_round():
    from pwscup.accounts.services import user_create

    organizer = user_create(username="dp-demo-org", password="pw")
    competition = competition_create(name="Demo", slug="demo-dp", organizers=[organizer])
    made = dp_demo_load(competition=competition, organizer=organizer)
    assert [d.round.slug for d in made] == ["dp-adult", "dp-practice"]
    adult, practice = made
    assert adult.round.kind == "dp" and adult.round.original_rows == 32_561
    assert len(adult.config["workload"]) == 6
    truths = engine.round_truths(adult.round)
    assert truths["sex_ageband"] == ADULT_SEX_AGEBAND  # P8
    assert practice.round.original_rows == 6040
    assert engine.round_truths(practice.round)["gender_age"] == MOVIELENS_Z
    assert dp_demo_load(competition=competition, organizer=organizer) == []  # idempotent
