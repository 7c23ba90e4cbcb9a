"""Job state transitions shared by every scored object.

A transition is one conditional UPDATE, so two deliveries of the same task cannot
both run it, and a worker that was presumed dead cannot overwrite a newer run
(``started_at`` is the run's token).
"""

import datetime as dt
from dataclasses import dataclass

from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

from pwscup.submissions.models import Status


@dataclass(frozen=True)
class JobFields:
    status: str = "status"
    queued_at: str = "queued_at"
    started_at: str = "started_at"
    attempts: str = "attempts"
    message: str = "message"
    finished_at: str | None = "finished_at"


UPLOAD_JOB = JobFields()
BUILTIN_JOB = JobFields(
    status="builtin_status",
    queued_at="builtin_queued_at",
    started_at="builtin_started_at",
    attempts="builtin_attempts",
    message="builtin_message",
    finished_at=None,
)


def stale_before(now: dt.datetime) -> dt.datetime:
    """A run started before this instant has outlived the hard time limit: its worker is gone."""
    return now - dt.timedelta(seconds=settings.PWSCUP_SCORING_HARD_TIME_LIMIT + 30)


def job_claim(*, model, pk: int, fields: JobFields = UPLOAD_JOB, now=None) -> dt.datetime | None:
    """QUEUED (or abandoned RUNNING) → RUNNING. Returns the run token, or None if not ours."""
    now = now or timezone.now()
    claimable = Q(**{fields.status: Status.QUEUED}) | Q(
        **{fields.status: Status.RUNNING, f"{fields.started_at}__lt": stale_before(now)}
    )
    updated = (
        model.objects.filter(pk=pk)
        .filter(claimable)
        .update(
            **{
                fields.status: Status.RUNNING,
                fields.started_at: now,
                fields.attempts: F(fields.attempts) + 1,
            }
        )
    )
    return now if updated else None


def job_complete(
    *,
    model,
    pk: int,
    token: dt.datetime,
    status: str,
    message: str = "",
    fields: JobFields = UPLOAD_JOB,
    **values,
) -> bool:
    """RUNNING (this run) → FINISHED/FAILED with the results; False if the run was superseded."""
    values[fields.status] = status
    values[fields.message] = message
    if fields.finished_at:
        values[fields.finished_at] = timezone.now()
    updated = model.objects.filter(
        pk=pk, **{fields.status: Status.RUNNING, fields.started_at: token}
    ).update(**values)
    return bool(updated)


def job_requeue(*, model, pks, fields: JobFields = UPLOAD_JOB, reset_attempts: bool = False) -> int:
    """Put jobs back in the queue (rescoring, reaping); the caller enqueues the tasks."""
    values = {
        fields.status: Status.QUEUED,
        fields.message: "",
        fields.started_at: None,
        fields.queued_at: timezone.now(),
    }
    if reset_attempts:
        values[fields.attempts] = 0
    return model.objects.filter(pk__in=list(pks)).update(**values)
