"""One run of a job, start to end (``job_execute``, what every kind's task calls): claimed
once, the values computed or the reason of its failure kept, a run the kind ends itself, a
run that met a stalled storage queued again."""

import pytest
from botocore.exceptions import ClientError, EndpointConnectionError, ReadTimeoutError

from pwscup import celery_app
from pwscup.core.storage import storage_stalled
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import (
    STALL_RETRY_SECONDS,
    JobStop,
    job_claim,
    job_execute,
)
from tests.pwscup.factories import upload

pytestmark = pytest.mark.django_db


def execute(pk, **options):
    job_execute(model=AnonymizationSubmission, pk=pk, what="a test run", **options)
    return AnonymizationSubmission.objects.get(pk=pk)


def test_a_run_keeps_what_it_computed_on_the_row_it_loaded(world):
    submission = upload(world, "a", world.original)
    done = execute(
        submission.pk,
        compute=lambda row: {"scores": {"team": row.team.slug}},
        related=("team",),
    )
    assert done.status == Status.FINISHED
    assert done.scores == {"team": world.teams["a"].slug}
    assert done.finished_at is not None and done.message == ""


def test_a_job_another_run_holds_is_left_alone(world):
    submission = upload(world, "a", world.original)
    assert job_claim(model=AnonymizationSubmission, pk=submission.pk, task_id="other")
    ran = []
    held = execute(submission.pk, compute=ran.append, task_id="mine")
    assert ran == [] and held.status == Status.RUNNING


def test_a_stop_fails_the_run_with_the_kinds_own_message(world):
    submission = upload(world, "a", world.original)

    def compute(row):
        raise JobStop(JobMessage(text="Your release 1 is still being checked."))

    failed = execute(submission.pk, compute=compute)
    assert failed.status == Status.FAILED
    assert failed.message == "Your release 1 is still being checked."


def test_a_run_the_kind_ends_itself_keeps_its_values_and_a_remark(world):
    submission = upload(world, "a", world.original)
    done = execute(
        submission.pk,
        run=lambda row: (Status.FINISHED, None, {"scores": {"kept": 1}, "gate": "copy"}),
        remark=lambda values: JobMessage(text=f"gate: {values.pop('gate')}"),
    )
    assert (done.status, done.scores, done.message) == (Status.FINISHED, {"kept": 1}, "gate: copy")


def stalled(row):
    # What reading a kept file raises when the bucket does not answer in time.
    try:
        raise ReadTimeoutError(endpoint_url="http://bucket.example/original.csv")
    except ReadTimeoutError as error:
        raise ValueError("the table could not be read") from error  # as a reader may wrap it


def test_a_run_that_meets_a_stalled_storage_is_queued_again_and_sent_later(
    world, monkeypatch, django_capture_on_commit_callbacks
):
    submission = upload(world, "a", world.original)
    sent = []
    # What reaches the broker (the queue itself may have a live worker of another module).
    monkeypatch.setattr(
        celery_app,
        "send_task",
        lambda task, args, **options: sent.append((task, args, options)),
    )
    with django_capture_on_commit_callbacks(execute=True):
        again = execute(submission.pk, compute=stalled)
    assert again.status == Status.QUEUED
    assert (again.message_code, again.started_at, again.attempts) == ("job.storage_retry", None, 1)
    assert sent == [
        (
            "pwscup.pwscup2015.tasks.score_anonymization",
            (submission.pk,),
            {"countdown": STALL_RETRY_SECONDS},
        )
    ]
    # The next run that finds the storage answering scores it.
    done = execute(submission.pk, compute=lambda row: {"scores": {"ok": 1}})
    assert (done.status, done.scores, done.message, done.attempts) == (
        Status.FINISHED,
        {"ok": 1},
        "",
        2,
    )


def test_a_storage_that_stays_stalled_fails_the_run_once_its_attempts_are_used(world, settings):
    settings.PWSCUP_SCORING_MAX_ATTEMPTS = 2
    submission = upload(world, "a", world.original)
    assert execute(submission.pk, compute=stalled).status == Status.QUEUED
    failed = execute(submission.pk, compute=stalled)
    assert (failed.status, failed.message_code, failed.attempts) == (
        Status.FAILED,
        "job.storage_exhausted",
        2,
    )
    assert "did not answer the 2 times" in failed.message


@pytest.mark.parametrize(
    ("error", "stall"),
    [
        (ReadTimeoutError(endpoint_url="http://b"), True),
        (EndpointConnectionError(endpoint_url="http://b"), True),
        (ClientError({"ResponseMetadata": {"HTTPStatusCode": 503}}, "GetObject"), True),
        (ClientError({"ResponseMetadata": {"HTTPStatusCode": 404}}, "GetObject"), False),
        (ClientError({"Error": {"Code": "AccessDenied"}}, "GetObject"), False),
        (FileNotFoundError("original.csv"), False),
        (ValueError("a bad file"), False),
    ],
)
def test_only_a_storage_that_did_not_answer_is_a_stall(error, stall):
    assert storage_stalled(error) is stall


def test_a_run_the_storage_refused_for_good_fails_with_a_reason(world):
    submission = upload(world, "a", world.original)

    def missing(row):
        raise ClientError({"ResponseMetadata": {"HTTPStatusCode": 404}}, "GetObject")

    failed = execute(submission.pk, compute=missing)
    assert (failed.status, failed.message_code) == (Status.FAILED, "job.internal_error")
