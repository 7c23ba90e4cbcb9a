"""The reaper (no job stuck in RUNNING or forgotten in QUEUED) and automatic freezes."""

import datetime as dt

import pytest
from django.conf import settings
from django.utils import timezone

from pwscup.notifications.models import Notification
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    BuiltinAttack,
    Pwscup2015Round,
    Target,
)
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_claim, job_complete
from pwscup.submissions.services.maintenance import jobs_reap
from tests.pwscup.factories import (
    answer_bytes,
    attack,
    freeze,
    run_operations,
    score,
    scored,
    truth_of,
    upload,
)
from tests.support import noisy_copy, tasks_sent

pytestmark = pytest.mark.django_db

HARD_LIMIT = dt.timedelta(seconds=settings.PWSCUP_SCORING_HARD_TIME_LIMIT)


def running(submission, *, started_ago: dt.timedelta, attempts: int):
    AnonymizationSubmission.objects.filter(pk=submission.pk).update(
        status=Status.RUNNING, started_at=timezone.now() - started_ago, attempts=attempts
    )


def test_reaper_requeues_a_lost_job_and_fails_an_exhausted_one(
    world, django_capture_on_commit_callbacks
):
    lost = upload(world, "a", noisy_copy(world.original, seed=1))
    exhausted = upload(world, "b", noisy_copy(world.original, seed=2))
    busy = upload(world, "c", noisy_copy(world.original, seed=3))
    late = HARD_LIMIT + dt.timedelta(minutes=5)
    running(lost, started_ago=late, attempts=1)
    running(exhausted, started_ago=late, attempts=settings.PWSCUP_SCORING_MAX_ATTEMPTS)
    running(busy, started_ago=dt.timedelta(seconds=30), attempts=1)  # still within its limit
    with django_capture_on_commit_callbacks() as callbacks:
        counts = jobs_reap()
    assert counts == {"requeued": 1, "failed": 1, "resent": 0}
    assert len(tasks_sent(callbacks)) == 1, "the requeued job is sent to the broker again"
    # The exhausted one's team is told.
    told = Notification.objects.filter(user=world.users["b"]).get()
    assert told.kind == Notification.Kind.SUBMISSION_FAILED
    assert not Notification.objects.filter(user__in=[world.users["a"], world.users["c"]]).exists()
    lost.refresh_from_db()
    assert (lost.status, lost.started_at, lost.attempts) == (Status.QUEUED, None, 1)
    exhausted.refresh_from_db()
    assert exhausted.status == Status.FAILED
    assert "interrupted" in exhausted.message, exhausted.message
    assert f"{exhausted.attempts} times" in exhausted.message, exhausted.message
    assert exhausted.finished_at is not None
    busy.refresh_from_db()
    assert busy.status == Status.RUNNING
    # The requeued job is then scored normally, as its attempt 2.
    finished = score(lost)
    assert (finished.status, finished.attempts) == (Status.FINISHED, 2)


def test_reaper_resends_a_forgotten_queued_job_only(world, django_capture_on_commit_callbacks):
    forgotten = upload(world, "a", noisy_copy(world.original, seed=1))
    fresh = upload(world, "b", noisy_copy(world.original, seed=2))
    two_hours_ago = timezone.now() - dt.timedelta(hours=2)
    AnonymizationSubmission.objects.filter(pk=forgotten.pk).update(
        created_at=two_hours_ago, queued_at=two_hours_ago
    )
    with django_capture_on_commit_callbacks() as callbacks:
        counts = jobs_reap()
    assert counts == {"requeued": 0, "failed": 0, "resent": 1}
    assert len(callbacks) == 1
    assert set(AnonymizationSubmission.objects.values_list("status", flat=True)) == {Status.QUEUED}
    # The one message sent is the forgotten job's (sent again now), not the fresh one's.
    sent_before = fresh.queued_at
    forgotten.refresh_from_db()
    fresh.refresh_from_db()
    assert forgotten.queued_at > two_hours_ago + dt.timedelta(hours=1)
    assert fresh.queued_at == sent_before


def test_reaper_does_not_flood_the_queue_with_jobs_already_sent(
    world, django_capture_on_commit_callbacks
):
    """A job resent once, or just requeued by a rescore, is not sent again on every tick."""
    old = [
        upload(world, letter, noisy_copy(world.original, seed=i)) for i, letter in enumerate("abc")
    ]
    two_days_ago = timezone.now() - dt.timedelta(days=2)
    AnonymizationSubmission.objects.update(created_at=two_days_ago, queued_at=two_days_ago)
    # Forgotten for two days: resent once, then left alone on the next ticks.
    with django_capture_on_commit_callbacks() as callbacks:
        assert jobs_reap()["resent"] == 3
        assert jobs_reap()["resent"] == 0
    assert len(callbacks) == 3
    # ... unless it is still not picked up much later.
    later = timezone.now() + dt.timedelta(hours=1)
    with django_capture_on_commit_callbacks() as callbacks:
        assert jobs_reap(now=later)["resent"] == 3
    # Old submissions rescored by the organizer are queued now: not "forgotten".
    for submission in old:
        score(submission)
    with django_capture_on_commit_callbacks() as callbacks:
        services.round_rescore_all(round=world.round)
    assert len(tasks_sent(callbacks)) == 3
    with django_capture_on_commit_callbacks() as callbacks:
        assert jobs_reap()["resent"] == 0
    assert callbacks == []


def test_reaper_covers_attacks_and_builtin_jobs(world, django_capture_on_commit_callbacks):
    scored(world, "a", seed=1)
    target = freeze(world)["a"]
    hit = attack(world, "b", target, answer_bytes(truth_of(target)))
    late = timezone.now() - HARD_LIMIT - dt.timedelta(minutes=5)
    AttackSubmission.objects.filter(pk=hit.pk).update(
        status=Status.RUNNING, started_at=late, attempts=1
    )
    BuiltinAttack.objects.filter(pk=target.pk).update(
        status=Status.RUNNING,
        started_at=late,
        attempts=settings.PWSCUP_SCORING_MAX_ATTEMPTS,
    )
    with django_capture_on_commit_callbacks() as callbacks:
        counts = jobs_reap()
    assert counts == {"requeued": 1, "failed": 1, "resent": 0}
    assert len(callbacks) == 1
    assert AttackSubmission.objects.get(pk=hit.pk).status == Status.QUEUED
    target.refresh_from_db()
    assert target.builtin.status == Status.FAILED and target.builtin.message


def test_a_superseded_run_cannot_overwrite_the_new_one(world):
    """A worker that comes back after the reaper requeued its job must not write results."""
    submission = upload(world, "a", noisy_copy(world.original, seed=1))
    long_ago = timezone.now() - HARD_LIMIT - dt.timedelta(minutes=5)
    old_token = job_claim(model=AnonymizationSubmission, pk=submission.pk, now=long_ago)
    assert old_token is not None
    # While the first run holds it (not stale at its own clock), nobody else claims it.
    assert job_claim(model=AnonymizationSubmission, pk=submission.pk, now=long_ago) is None
    # Later the run is stale: a redelivery claims it afresh.
    new_token = job_claim(model=AnonymizationSubmission, pk=submission.pk)
    assert new_token is not None and new_token != old_token
    assert not job_complete(
        model=AnonymizationSubmission,
        pk=submission.pk,
        token=old_token,
        status=Status.FINISHED,
        scores={"U1": -1},
    )
    submission.refresh_from_db()
    assert (submission.status, submission.scores, submission.attempts) == (
        Status.RUNNING,
        {},
        2,
    )


def test_auto_freeze_freezes_only_rounds_whose_anonymization_phase_closed(make_world):
    closed = make_world(slug="closed", anonymization_open=False)
    during = closed.anonymization.opens_at + dt.timedelta(minutes=10)
    submission = score(upload(closed, "a", noisy_copy(closed.original, seed=1), now=during))
    assert submission.status == Status.FINISHED
    running_round = make_world(slug="running")
    manual = make_world(slug="manual", anonymization_open=False)
    Pwscup2015Round.objects.filter(round=manual.round).update(auto_freeze=False)
    frozen = services.rounds_auto_freeze()
    assert frozen == [closed.round.pk]
    # A tick while its freeze waits for a worker asks for nothing more.
    assert services.rounds_auto_freeze() == []
    (operation,) = run_operations()
    assert (operation.kind, operation.status) == ("freeze", Status.FINISHED)
    closed.round.refresh_from_db()
    assert closed.round.pwscup2015.frozen_at is not None
    target = Target.objects.get(round=closed.round)
    assert (target.team, target.submission_id) == (closed.teams["a"], submission.pk)
    for world in (running_round, manual):
        world.round.refresh_from_db()
        assert world.round.pwscup2015.frozen_at is None
    # The next tick does not freeze it again.
    first = closed.round.pwscup2015.frozen_at
    assert services.rounds_auto_freeze() == []
    closed.round.refresh_from_db()
    assert closed.round.pwscup2015.frozen_at == first
    assert Target.objects.get(round=closed.round).version == 1
