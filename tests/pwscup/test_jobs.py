"""Job claims: duplicate deliveries, redelivery after a worker died, the attempt limit."""

import pytest
from django.test import override_settings

from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_claim
from tests.pwscup.factories import upload

pytestmark = pytest.mark.django_db


def claim(pk, task_id):
    return job_claim(model=AnonymizationSubmission, pk=pk, task_id=task_id)


def test_another_delivery_does_not_take_a_running_job(world):
    submission = upload(world, "a", world.original)
    assert claim(submission.pk, "task-1") is not None
    assert claim(submission.pk, "task-2") is None  # a second message for the same job
    submission.refresh_from_db()
    assert (submission.status, submission.task_id, submission.attempts) == (
        Status.RUNNING,
        "task-1",
        1,
    )


def test_the_same_task_delivered_again_takes_over_its_abandoned_run(world):
    submission = upload(world, "a", world.original)
    first = claim(submission.pk, "task-1")
    second = claim(submission.pk, "task-1")  # acks_late: its worker died, the message is back
    assert second is not None and second >= first
    submission.refresh_from_db()
    assert (submission.status, submission.attempts) == (Status.RUNNING, 2)


@override_settings(PWSCUP_SCORING_MAX_ATTEMPTS=2)
def test_a_task_that_keeps_killing_its_worker_fails_with_a_reason(world):
    submission = upload(world, "a", world.original)
    assert claim(submission.pk, "task-1") is not None
    assert claim(submission.pk, "task-1") is not None
    assert claim(submission.pk, "task-1") is None
    submission.refresh_from_db()
    assert submission.status == Status.FAILED
    assert "interrupted 2 times" in submission.message
    assert submission.finished_at is not None
