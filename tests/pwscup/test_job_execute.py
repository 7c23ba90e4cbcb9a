"""One run of a job, start to end (``job_execute``, what every kind's task calls): claimed
once, the values computed or the reason of its failure kept, a run the kind ends itself."""

import pytest

from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import JobStop, job_claim, job_execute
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
