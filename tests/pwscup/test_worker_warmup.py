"""A worker warms up before its pool starts: the open rounds' originals are prepared once,
its first job reuses them, and nothing in the warm-up can stop the worker from starting."""

import pytest
from celery.signals import worker_init
from django.db import connections

import scoring
from pwscup.pwscup2015 import services, warmup
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.pwscup2015.prepared import prepared_cache_clear
from pwscup.submissions.models import Status
from tests.support import build_world, csv_upload, noisy_copy, settled

# The warm-up closes the database connections (the pool's processes must not share them):
# only a test that commits can run it.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def preparations(monkeypatch):
    """The originals prepared during the test (``scoring.prepare_original`` calls)."""
    prepared_cache_clear()
    calls = []
    real = scoring.prepare_original

    def counting(table, config):
        calls.append(len(table))
        return real(table, config)

    monkeypatch.setattr(scoring, "prepare_original", counting)
    yield calls
    prepared_cache_clear()


def test_the_first_job_after_the_warm_up_reuses_the_prepared_original(preparations):
    world = build_world(slug="warm")
    assert warmup.warm_worker() == 1
    assert len(preparations) == 1
    assert connections["default"].connection is None, "the warm-up left a connection open"

    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams["a"],
        user=world.users["a"],
        uploaded_file=csv_upload(noisy_copy(world.original, seed=1)),
    )
    services.anonymization_submission_score(submission_id=submission.pk)
    scored = settled(AnonymizationSubmission, submission.pk)
    assert scored.status == Status.FINISHED, scored.message
    assert len(preparations) == 1, "the first job prepared the original again"


def test_closed_per_team_and_large_rounds_are_left_to_their_first_job(preparations, monkeypatch):
    build_world(slug="closed", anonymization_open=False)
    build_world(slug="perteam", data_mode="per_team")
    assert warmup.warm_worker() == 0
    big = build_world(slug="big")
    monkeypatch.setattr(warmup, "WARM_MAX_ROWS", big.round.original_rows - 1)
    assert warmup.warm_worker() == 0
    assert preparations == []
    monkeypatch.setattr(warmup, "WARM_MAX_ROWS", big.round.original_rows)
    assert warmup.warm_worker() == 1


def test_a_broken_round_does_not_stop_the_warm_up_nor_the_worker(preparations, monkeypatch):
    # Another original (rows): the same bytes would be prepared once for both rounds.
    broken = build_world(slug="broken", rows=150)
    build_world(slug="fine")
    broken.round.original_file.storage.delete(broken.round.original_file.name)
    assert warmup.warm_worker() == 1  # the other round

    def failing():
        raise RuntimeError("database down")

    monkeypatch.setattr(warmup, "warm_worker", failing)
    warmup.on_worker_init(sender=None)  # logged, not raised


def test_the_receiver_is_connected_to_worker_init():
    import pwscup.pwscup2015.tasks  # noqa: F401 - connects the receiver

    receivers = [receiver for _key, receiver in worker_init.receivers]
    assert warmup.on_worker_init in receivers
