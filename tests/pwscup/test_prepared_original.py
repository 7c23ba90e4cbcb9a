"""A worker prepares a round's original once and scores every submission against it."""

import pytest

import scoring
from pwscup.competitions.models import Round
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import AnonymizationSubmission, Pwscup2015Round
from pwscup.pwscup2015.prepared import prepared_cache_clear
from pwscup.submissions.models import Status
from tests.pwscup.factories import read_field
from tests.support import csv_upload, noisy_copy

pytestmark = pytest.mark.django_db


@pytest.fixture
def preparations(monkeypatch):
    """The originals prepared during the test (``scoring.prepare_original`` calls)."""
    prepared_cache_clear()
    calls = []
    real = scoring.prepare_original

    def counting(table, config):
        calls.append(config)
        return real(table, config)

    monkeypatch.setattr(scoring, "prepare_original", counting)
    yield calls
    prepared_cache_clear()


def submit(world, content: bytes, team: str = "a") -> AnonymizationSubmission:
    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams[team],
        user=world.users[team],
        uploaded_file=csv_upload(content),
    )
    services.anonymization_submission_score(submission_id=submission.pk)
    return AnonymizationSubmission.objects.get(pk=submission.pk)


def expected_scores(original: bytes, content: bytes, config_raw) -> dict:
    x = scoring.read_table(original)
    return scoring.evaluate(x, scoring.read_table(content), scoring.load_config(config_raw, x))


def test_every_job_of_a_round_version_reuses_one_prepared_original(world, preparations):
    uploads = [noisy_copy(world.original, seed=seed, delete=seed) for seed in (1, 2, 3)]
    done = [submit(world, content, team) for content, team in zip(uploads, "abc", strict=True)]
    assert [s.status for s in done] == [Status.FINISHED] * 3, [s.message for s in done]
    assert len(preparations) == 1
    for submission, content in zip(done, uploads, strict=True):
        assert submission.scores == expected_scores(world.original, content, world.round.config)

    # An edited configuration is another version of the round: prepared again, once.
    edited = {**world.round.config, "match_qi": ["sex"]}
    Round.objects.filter(pk=world.round.pk).update(config=edited)
    world.anonymization.round.refresh_from_db()
    again = [submit(world, content) for content in uploads[:2]]
    assert len(preparations) == 2
    assert preparations[1].match_qi == ("sex",)
    assert again[0].scores == expected_scores(world.original, uploads[0], edited)
    assert again[0].scores["E1"] != done[0].scores["E1"]


def test_per_team_samples_are_prepared_per_team(make_world, preparations):
    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    samples = {
        team: read_field(world.round.team_datasets.get(team=world.teams[team]).file)
        for team in "ab"
    }
    for team in ("a", "b", "a", "b"):
        submission = submit(world, noisy_copy(samples[team], seed=1), team)
        assert submission.status == Status.FINISHED, submission.message
        assert submission.scores == expected_scores(
            samples[team], noisy_copy(samples[team], seed=1), world.round.config
        )
    assert len(preparations) == 2
