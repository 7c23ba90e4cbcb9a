"""A large release is checked by the real Celery worker, with the same results as in the
request; the job follows the submissions' state machine (a second delivery does nothing)."""

import pytest

from pwscup.sequential import services
from pwscup.sequential.models import Release
from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world
from tests.support import wait_for

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_release_over_the_inline_size_is_checked_by_the_worker(settings, celery_worker_process):
    world = seq_world(slug="seqworker")
    publish(world, "a", 1, fixture("zhang_release_1.csv"))
    publish(world, "b", 1, fixture("zhang_release_1.csv"))
    freeze(world)
    inline = publish(world, "a", 2, fixture("zhang_release_2_table9.csv"))
    assert inline.status == Release.Status.FINISHED
    settings.PWSCUP_SEQ_INLINE_MAX_ROWS = 0  # every check goes to the worker
    queued = publish(world, "b", 2, fixture("zhang_release_2_table9.csv"))
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
    rejected = publish(world, "b", 2, fixture("zhang_release_2_table9_as_printed.csv"))
    wait_for(
        lambda: Release.objects.filter(pk=rejected.pk, status=Release.Status.FAILED).exists(),
        timeout=120,
        what="the worker to reject the release",
    )
    rejected.refresh_from_db()
    assert "pid 'Bob' must carry its true Disease 'dyspepsia'" in rejected.message
