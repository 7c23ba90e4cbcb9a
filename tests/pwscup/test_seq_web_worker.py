"""Releases are checked by the real Celery worker (never in the request), with the same
results as the job run here; the job follows the core's state machine (a second delivery
does nothing)."""

import pytest

from pwscup.sequential import services
from pwscup.sequential.models import Release
from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world, upload_file
from tests.support import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def _upload(world, letter: str, step: int, content: bytes) -> Release:
    """Upload only: the check is the worker's."""
    return services.release_upload(
        sequential=world.sequential,
        team=world.teams[letter],
        user=world.users[letter],
        step=step,
        uploaded_file=upload_file(content, f"release_{step}.csv"),
    )


def test_a_release_is_checked_by_the_worker(celery_worker_process):
    world = seq_world(slug="seqworker")
    publish(world, "a", 1, fixture("zhang_release_1.csv"))
    publish(world, "b", 1, fixture("zhang_release_1.csv"))
    freeze(world)
    inline = publish(world, "a", 2, fixture("zhang_release_2_table9.csv"))
    assert inline.status == Release.Status.FINISHED
    queued = _upload(world, "b", 2, fixture("zhang_release_2_table9.csv"))
    assert queued.status == Release.Status.QUEUED
    wait_for(
        lambda: Release.objects.filter(
            pk=queued.pk, status__in=[Release.Status.FINISHED, Release.Status.FAILED]
        ).exists(),
        timeout=120,
        what="the worker to check the release",
    )
    queued.refresh_from_db()
    assert queued.status == Release.Status.FINISHED, queued.message
    assert queued.results == inline.results and queued.per_person == inline.per_person
    assert queued.attempts == 1 and queued.worker and queued.finished_at
    # Delivered again (e.g. by the reaper): the finished job is not claimed, nothing changes.
    services.release_check(release_id=queued.pk, task_id="again")
    queued.refresh_from_db()
    assert queued.attempts == 1 and queued.status == Release.Status.FINISHED
    rejected = _upload(world, "b", 2, fixture("zhang_release_2_table9_as_printed.csv"))
    wait_for(
        lambda: Release.objects.filter(pk=rejected.pk, status=Release.Status.FAILED).exists(),
        timeout=120,
        what="the worker to reject the release",
    )
    rejected.refresh_from_db()
    assert "pid 'Bob' must carry its true Disease 'dyspepsia'" in rejected.message


def test_the_reaper_requeues_a_release_check_lost_with_its_worker(settings):
    """A RUNNING check past the hard time limit goes back to the queue and is sent again."""
    import datetime as dt
    from unittest import mock

    from django.utils import timezone

    from pwscup.submissions.services.maintenance import jobs_reap

    world = seq_world(slug="seqreap")
    with mock.patch("pwscup.submissions.broker.job_send"):
        release = _upload(world, "a", 1, fixture("zhang_release_1.csv"))
    long_ago = timezone.now() - dt.timedelta(seconds=settings.PWSCUP_SCORING_HARD_TIME_LIMIT + 60)
    Release.objects.filter(pk=release.pk).update(
        status=Release.Status.RUNNING, started_at=long_ago, attempts=1, worker="gone@host"
    )
    with mock.patch("pwscup.submissions.broker.job_send") as send:
        counts = jobs_reap()
    assert counts["requeued"] >= 1
    assert mock.call(services.CHECK_RELEASE_TASK, release.pk) in send.call_args_list
    release.refresh_from_db()
    assert release.status == Release.Status.QUEUED
    services.release_check(release_id=release.pk, task_id="resent")  # what the worker runs
    release.refresh_from_db()
    assert release.status == Release.Status.FINISHED and release.attempts == 2
