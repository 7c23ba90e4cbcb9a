"""Job state transitions shared by every scored object.

A transition is one conditional UPDATE, so two deliveries of the same task cannot
both run it, and a worker that was presumed dead cannot overwrite a newer run
(``started_at`` is the run's token).

A run records the Celery task id and the worker (hostname) that claimed it. Tasks are
acknowledged late, so when a worker's pool process dies mid-run its message comes back
with the same id: the RUNNING job is then known to be abandoned and is taken over at
once (up to the attempt limit, after which it fails with a reason instead of crashing
workers forever). When the whole worker dies, its message stays unacknowledged in the
broker; the reaper sees that the recorded worker no longer answers and requeues the run.
"""

import datetime as dt
import logging
import time
from dataclasses import dataclass

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db.models import F, Q
from django.utils import timezone

import scoring
from pwscup.core.storage import storage_stalled
from pwscup.submissions import broker
from pwscup.submissions.messages import JobFailure, JobMessage
from pwscup.submissions.models import Status
from pwscup.submissions.registry import job_kind_of
from pwscup.submissions.services.live import live_jobs_changed
from pwscup.submissions.services.outcomes import upload_outcome_told

log = logging.getLogger(__name__)

# A run that met a stalled storage is sent again this many seconds later.
STALL_RETRY_SECONDS = 10


@dataclass(frozen=True)
class JobKind:
    """A model whose rows are background jobs (it inherits ``JobState``), and the task (by
    name) that takes a row's primary key. The reaper watches the core's and every round
    kind's (``RoundKind.jobs``).

    ``round_path`` and ``team_path`` are field paths from a job row to its round and its
    team (``"phase__round"``, ``"team"``): every transition bumps their live versions
    (``pwscup.submissions.services.live``). No ``round_path``: a team's job of no round (the
    slides); no ``team_path``: a job of the round itself (a console operation)."""

    model: type
    task: str
    round_path: str | None = None
    team_path: str | None = "team"


def stale_before(now: dt.datetime) -> dt.datetime:
    """A run started before this instant has outlived the hard time limit: its worker is gone."""
    return now - dt.timedelta(seconds=settings.PWSCUP_SCORING_HARD_TIME_LIMIT + 30)


def message_values(message: JobMessage | None) -> dict:
    """The field values recording ``message`` (none: cleared) on a job row."""
    message = message or JobMessage()
    return {
        "message": message.text,
        "message_code": message.code,
        "message_params": message.params,
    }


def exhausted_values(now: dt.datetime, code: str = "job.attempts_exhausted") -> dict:
    """The field values of a job failed for good at ``now``: its attempts are used up (what
    ended each of them: ``code``, a platform message taking ``n``)."""
    message = JobMessage.platform(code, n=settings.PWSCUP_SCORING_MAX_ATTEMPTS)
    return {"status": Status.FAILED, "finished_at": now, **message_values(message)}


def job_claim(
    *,
    model,
    pk: int,
    now=None,
    task_id: str = "",
    worker: str = "",
) -> dt.datetime | None:
    """QUEUED (or abandoned RUNNING) → RUNNING. Returns the run token, or None if not ours.

    A RUNNING job is abandoned when its run outlived the hard time limit, or when the
    task that claimed it (``task_id``) is delivered again: its worker died. ``worker``
    (the claiming worker's hostname) lets the reaper notice a worker that vanished.
    """
    now = now or timezone.now()
    running = Q(status=Status.RUNNING)
    abandoned = running & Q(started_at__lt=stale_before(now))
    if task_id:
        abandoned |= running & Q(task_id=task_id)
    retry_allowed = Q(attempts__lt=settings.PWSCUP_SCORING_MAX_ATTEMPTS)
    claimable = Q(status=Status.QUEUED) | (abandoned & retry_allowed)
    updated = (
        model.objects.filter(pk=pk)
        .filter(claimable)
        .update(
            status=Status.RUNNING,
            started_at=now,
            task_id=task_id,
            worker=worker,
            attempts=F("attempts") + 1,
        )
    )
    if updated:
        live_jobs_changed(model=model, pks=[pk])
        return now
    if task_id:
        # This very task keeps dying with its worker: stop, with a reason.
        if (
            model.objects.filter(pk=pk)
            .filter(running & Q(task_id=task_id))
            .update(**exhausted_values(now))
        ):
            live_jobs_changed(model=model, pks=[pk])
            upload_outcome_told(model=model, pk=pk, status=Status.FAILED)
    return None


def job_run(compute, *, what: str) -> tuple[str, JobMessage | None, dict]:
    """Run ``compute()`` → (status, failure message, values); every failure has a reason.

    A ``scoring.ScoringError`` is the participant's to fix: its code and parameters are
    kept, to be shown in each reader's language. A storage that did not answer
    (``storage_stalled``) is nobody's fault: the status is QUEUED, and ``job_complete``
    puts the run back in the queue. Anything else is the scorer's fault: logged, and
    reported without internals.
    """
    try:
        return Status.FINISHED, None, compute()
    except scoring.ScoringError as error:
        return Status.FAILED, JobMessage.from_scoring_error(error), {}
    except JobFailure as failure:
        return Status.FAILED, failure.message, {}
    except Exception as error:  # noqa: BLE001 - a job must end with a reason, never hang
        if storage_stalled(error):
            log.warning("scoring %s met a stalled storage: %r", what, error)
            return Status.QUEUED, JobMessage.platform("job.storage_retry"), {}
        log.exception("scoring %s failed", what)
        return Status.FAILED, scorer_crash_message(error), {}


def scorer_crash_message(error: Exception) -> JobMessage:
    if isinstance(error, SoftTimeLimitExceeded):
        return JobMessage.platform(
            "job.time_limit", seconds=settings.PWSCUP_SCORING_SOFT_TIME_LIMIT
        )
    if isinstance(error, MemoryError):  # the process's bound (pwscup/submissions/limits.py)
        return JobMessage.platform("job.memory_limit", megabytes=settings.PWSCUP_SCORING_MEMORY_MB)
    return JobMessage.platform("job.internal_error", kind=error.__class__.__name__)


def job_complete(
    *,
    model,
    pk: int,
    token: dt.datetime,
    status: str,
    message: JobMessage | None = None,
    **values,
) -> bool:
    """RUNNING (this run) → FINISHED/FAILED with the results; False if the run was superseded.

    ``status`` QUEUED (``job_run``: the storage stalled) ends the run without results:
    ``job_postpone``, and False (nothing was completed)."""
    if status == Status.QUEUED:
        job_postpone(model=model, pk=pk, token=token, message=message)
        return False
    values["status"] = status
    values.update(message_values(message))
    values["finished_at"] = timezone.now()
    updated = model.objects.filter(pk=pk, status=Status.RUNNING, started_at=token).update(**values)
    if updated:
        live_jobs_changed(model=model, pks=[pk])
        upload_outcome_told(model=model, pk=pk, status=status)
    return bool(updated)


def job_postpone(*, model, pk: int, token: dt.datetime, message: JobMessage | None) -> None:
    """RUNNING (this run) → QUEUED with ``message``, its task sent again
    ``STALL_RETRY_SECONDS`` later: the run met a stalled storage, so an accepted upload is
    scored once the storage answers, not failed. Its attempts are counted as every run's
    (``job_claim``): past ``PWSCUP_SCORING_MAX_ATTEMPTS`` it fails with the reason instead.
    A run superseded meanwhile is left as it is."""
    mine = model.objects.filter(pk=pk, status=Status.RUNNING, started_at=token)
    if mine.filter(attempts__lt=settings.PWSCUP_SCORING_MAX_ATTEMPTS).update(
        **{**queued_values(), **message_values(message)}
    ):
        task = job_kind_of(model).task
        broker.job_send(task, pk, countdown=STALL_RETRY_SECONDS)
    elif not mine.update(**exhausted_values(timezone.now(), "job.storage_exhausted")):
        return
    else:
        upload_outcome_told(model=model, pk=pk, status=Status.FAILED)
    live_jobs_changed(model=model, pks=[pk])


class JobStop(JobFailure):
    """A reason to fail a run that is already a ``JobMessage`` (a refusal's own text)."""

    def __init__(self, message: JobMessage) -> None:
        self.message = message
        Exception.__init__(self, message.text)


def job_related(model) -> tuple:
    """What a run of ``model`` loads with its row: its round and its team (the paths of the
    model's ``JobKind``, if it is registered) and what its ``JOB_RELATED`` adds."""
    job = job_kind_of(model)
    paths = (job.round_path, job.team_path) if job is not None else ()
    return (*[path for path in paths if path], *model.JOB_RELATED)


def job_execute(
    *,
    model,
    pk: int,
    compute=None,
    what: str = "",
    run=None,
    task_id: str = "",
    worker: str = "",
    related: tuple | None = None,
    timed: bool = False,
    remark=None,
) -> None:
    """One run of a job row, start to end, as every kind's task runs it: claim the row (not
    ours: nothing to do), load it (with ``related``; by default ``job_related(model)``),
    ``compute(row)`` → the values recorded (under ``job_run``, ``what`` naming it in the log,
    by default the model's label and ``pk``: a failure ends FAILED with its reason;
    ``JobStop`` fails it with a message of the kind's), and complete the run, with its
    ``elapsed_ms`` when ``timed``. A kind that ends its runs itself (a failed run of the
    organizer's program keeps what it printed) passes ``run(row)`` → ``(status, message,
    values)`` instead. ``remark(values)`` may give a finished run a message (it pops what it
    reads)."""
    token = job_claim(model=model, pk=pk, task_id=task_id, worker=worker)
    if token is None:
        return
    started = time.perf_counter()
    related = job_related(model) if related is None else related
    row = model.objects.select_related(*related).get(pk=pk)
    if run is None:
        what = what or f"{model._meta.label} {pk}"
        status, message, values = job_run(lambda: compute(row), what=what)
    else:
        status, message, values = run(row)
    if remark is not None:
        message = remark(values) or message
    if timed:
        values["elapsed_ms"] = round((time.perf_counter() - started) * 1000)
    job_complete(model=model, pk=pk, token=token, status=status, message=message, **values)


def job_refuse(*, model, pk: int, message: JobMessage) -> bool:
    """QUEUED (never claimed) → FAILED with ``message``: the kind refused the upload as it
    was kept (a file it must hold is missing), so no job is sent. Like every FAILED upload
    it uses none of the team's quota. False if a run has already claimed it."""
    updated = model.objects.filter(pk=pk, status=Status.QUEUED, started_at=None).update(
        status=Status.FAILED, finished_at=timezone.now(), **message_values(message)
    )
    if updated:
        live_jobs_changed(model=model, pks=[pk])
        upload_outcome_told(model=model, pk=pk, status=Status.FAILED)
    return bool(updated)


def queued_values(now: dt.datetime | None = None) -> dict:
    """The field values of a job queued (again) at ``now``: no run, no worker, no message."""
    return {
        "status": Status.QUEUED,
        **message_values(None),
        "started_at": None,
        "worker": "",
        "queued_at": now or timezone.now(),
    }


def job_requeue(*, model, pk: int, token: dt.datetime) -> bool:
    """RUNNING (the run ``token`` the caller read) → QUEUED: its worker is gone.

    Conditional like every transition: a run that finished, failed or was taken over
    between the caller's read and this update is left as it is (False). The caller
    sends the task again only when this returns True.
    """
    updated = model.objects.filter(pk=pk, status=Status.RUNNING, started_at=token).update(
        **queued_values()
    )
    if updated:
        live_jobs_changed(model=model, pks=[pk])
    return bool(updated)


def job_reset(*, model, pks) -> int:
    """Any state → QUEUED with fresh attempts: the organizers asked for a rescore.

    A run still in progress is superseded (its results are not written); the caller
    enqueues the tasks.
    """
    values = {**queued_values(), "attempts": 0}
    pks = list(pks)
    updated = model.objects.filter(pk__in=pks).update(**values)
    if updated:
        live_jobs_changed(model=model, pks=pks)
    return updated
