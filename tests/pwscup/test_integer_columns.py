"""Integer-valued QI columns are decided once per round, on its original (the master table
in the per-team mode), and every job compares values that way (metrics.md, "Data and roles").
"""

import datetime as dt

import numpy as np
import pytest
from django.utils import timezone

import scoring
from pwscup.competitions.models import Phase, Round
from pwscup.competitions.selectors import round_config
from pwscup.competitions.services import phase_set
from pwscup.kinds.round_basics import RoundBasics
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round
from pwscup.pwscup2015.selectors import target_truth, team_original_table
from pwscup.pwscup2015.services.freeze import target_reference_table
from pwscup.pwscup2015.services.rounds import round_create
from pwscup.submissions.models import Status
from scoring import kit
from tests.pwscup.factories import read_csv_text, read_field
from tests.support import adult_config, adult_head, csv_upload, table_bytes

pytestmark = pytest.mark.django_db


def round_with_a_fractional_age_outside_team_a_sample(world):
    """A per-team round whose master has ``age`` 40.5 in one row team A's sample lacks.

    Samples depend only on the round's seed, the team and the master's length, so a
    second round with the first one's seed draws the same samples.
    """
    sample_a = set(world.round.team_datasets.get(team=world.teams["a"]).sample_index)
    outside = next(row for row in range(world.round.original_rows) if row not in sample_a)
    master = read_csv_text(world.original)
    master.loc[outside, "age"] = "40.5"
    round_ = round_create(
        basics=RoundBasics(competition=world.competition, name="Round 2", slug="r2"),
        original=table_bytes(master),
        original_filename="master.csv",
        config_raw=adult_config(),
        data_mode=Pwscup2015Round.DataMode.PER_TEAM,
        sample_size=60,
        decoy_count=world.round.original_rows - 60,  # every other master row is a decoy
        secret_seed=world.round.pwscup2015.secret_seed,
    )
    services.round_assign_samples(round=round_)
    now, hour = timezone.now(), dt.timedelta(hours=1)
    anonymization = phase_set(
        round=round_, kind=Phase.Kind.ANONYMIZATION, opens_at=now - hour, closes_at=now + hour
    )
    assert outside not in round_.team_datasets.get(team=world.teams["a"]).sample_index
    return round_, anonymization


def submit(world, anonymization, content: bytes) -> AnonymizationSubmission:
    submission = services.anonymization_submission_create(
        phase=anonymization,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=csv_upload(content),
    )
    services.anonymization_submission_score(submission_id=submission.pk)
    return AnonymizationSubmission.objects.get(pk=submission.pk)


def test_the_master_decides_for_the_sample_the_submissions_and_the_candidate_table(make_world):
    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    round_, anonymization = round_with_a_fractional_age_outside_team_a_sample(world)
    assert "age" not in round_.config["integer_columns"]
    assert "education-num" not in round_.config["integer_columns"]  # an sa column
    assert {"workclass", "sex"}.isdisjoint(round_.config["integer_columns"])
    sample = read_csv_text(read_field(round_.team_datasets.get(team=world.teams["a"]).file))
    assert sample["age"].str.fullmatch(r"\d+").all()  # integers only in team A's sample

    _, config = team_original_table(round=round_, team=world.teams["a"])
    assert config.integer_columns == round_config(round=round_).integer_columns
    # In the master "age" is text, so "39.0" is not the original "39": the anonymization
    # phase rejects it, exactly as the attack phase would not match it.
    as_floats = sample.copy()
    as_floats["age"] = as_floats["age"] + ".0"
    rejected = submit(world, anonymization, table_bytes(as_floats))
    assert rejected.status == Status.FAILED
    assert "Column 'age' holds values that do not occur" in rejected.message, rejected.message

    accepted = submit(world, anonymization, table_bytes(sample))
    assert accepted.status == Status.FINISHED, accepted.message
    (target,) = services.round_freeze(round=round_)
    candidates, reference_config = target_reference_table(target=target)
    assert (candidates["age"] == "40.5").any()  # the decoys include the fractional age
    assert reference_config.integer_columns == config.integer_columns
    services.target_builtin_score(target_id=target.pk)
    target.refresh_from_db()
    assert target.builtin.status == Status.FINISHED, target.builtin.message
    published = read_csv_text(read_field(target.published_file))
    truth = target_truth(target=target)
    expected = scoring.builtin_attack_rates(candidates, published, truth, reference_config)
    expected[kit.BUILTIN_ATTACKER] = kit.lecture_attack_rate(
        candidates, published, truth, reference_config
    )
    expected[scoring.REFERENCE_ATTACK] = scoring.reference_attack_rate(
        candidates, published, truth, reference_config
    )
    assert target.builtin.rates == pytest.approx(expected)
    assert target.builtin.rates["E1"] > 0  # the rows really match their candidates


def test_an_integer_master_lets_39_0_count_as_39_in_every_job(make_world):
    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    assert "age" in world.round.config["integer_columns"]
    sample = read_csv_text(read_field(world.round.team_datasets.get(team=world.teams["a"]).file))
    as_floats = sample.copy()
    as_floats["age"] = as_floats["age"] + ".0"
    exact = submit(world, world.anonymization, table_bytes(sample))
    floats = submit(world, world.anonymization, table_bytes(as_floats))
    assert floats.status == Status.FINISHED, floats.message
    assert floats.scores == exact.scores


def test_a_round_stored_without_the_decision_gets_it_from_its_original(make_world):
    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    round_, _ = round_with_a_fractional_age_outside_team_a_sample(world)
    decided = list(round_.config["integer_columns"])
    legacy = {k: v for k, v in round_.config.items() if k != "integer_columns"}
    Round.objects.filter(pk=round_.pk).update(config=legacy)
    round_.refresh_from_db()
    _, config = team_original_table(round=round_, team=world.teams["a"])
    assert list(config.integer_columns) == decided
    assert "age" not in config.integer_columns


def test_saving_the_round_decides_again_whatever_the_configuration_said(make_world):
    world = make_world()
    claimed = {**adult_config(), "integer_columns": []}
    round_ = round_create(
        basics=RoundBasics(competition=world.competition, name="Round 3", slug="r3"),
        original=adult_head(50),
        original_filename="adult.csv",
        config_raw=claimed,
    )
    assert "age" in round_.config["integer_columns"]
    assert np.isin(["workclass", "fnlwgt"], round_.config["integer_columns"]).sum() == 0
