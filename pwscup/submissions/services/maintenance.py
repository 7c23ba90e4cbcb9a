"""Organizer-wide operations: rescoring a round, reaping stuck jobs, automatic freezes."""

import datetime as dt

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from pwscup.competitions.models import Phase, Round
from pwscup.submissions import broker
from pwscup.submissions.models import (
    AnonymizationSubmission,
    AttackSubmission,
    RoundOperation,
    Status,
)
from pwscup.submissions.services.anonymization import enqueue_anonymization
from pwscup.submissions.services.attacks import attacks_rescore
from pwscup.submissions.services.freeze import targets_rescore
from pwscup.submissions.services.jobs import (
    UPLOAD_JOB,
    JobKind,
    exhausted_values,
    job_requeue,
    job_reset,
    stale_before,
)
from pwscup.submissions.services.operations import round_freeze_request

# A run claimed this recently is left alone: its worker may be starting.
SEND_GRACE = dt.timedelta(seconds=10)
# The automatic freeze waits for uploads still being scored, at most this long after the
# anonymization phase closed (the reaper makes every job end well before).
AUTO_FREEZE_WAITS_AT_MOST = dt.timedelta(hours=1)


# The core's own jobs; each round kind adds its own (``RoundKind.jobs``).
CORE_JOBS = [JobKind(RoundOperation, UPLOAD_JOB, broker.RUN_ROUND_OPERATION)]


def job_kinds() -> list[JobKind]:
    """Every job the reaper watches: the core's and every registered round kind's."""
    from pwscup.kinds import all_kinds

    return [*CORE_JOBS, *(job for kind in all_kinds() for job in kind.jobs())]


def round_rescore_all(*, round: Round) -> dict[str, int]:
    """Score every upload and target of the round again with the current scorer."""
    anonymizations = list(
        AnonymizationSubmission.objects.filter(phase__round=round).values_list("pk", flat=True)
    )
    job_reset(model=AnonymizationSubmission, pks=anonymizations)
    for pk in anonymizations:
        enqueue_anonymization(pk)
    return {
        "anonymizations": len(anonymizations),
        "targets": targets_rescore(round=round),
        "attacks": attacks_rescore(queryset=AttackSubmission.objects.filter(phase__round=round)),
    }


def jobs_reap(*, now=None, worker: str = "") -> dict[str, int]:
    """Nothing stuck, nothing lost: run every few tens of seconds by Celery beat.

    * A RUNNING job whose run outlived the hard time limit, or whose worker (recorded at
      the claim) no longer answers or no longer runs its task, goes back to the queue;
      after ``PWSCUP_SCORING_MAX_ATTEMPTS`` runs it fails with the reason instead.
    * A QUEUED job whose message was sent more than ``PWSCUP_QUEUED_RESEND_SECONDS`` ago
      is sent again (its message may have been lost: a broker restarted without its data,
      an upload made while the broker was down, a worker that died holding it). A job in a
      long backlog gets one extra message per interval at most, and a duplicate is
      harmless: only one worker's claim of a QUEUED job succeeds (``jobs.job_claim``).

    ``worker`` is the hostname of the worker running the reaper: if it does not answer
    itself, the answers are not trusted and no run is declared dead by them.
    """
    now = now or timezone.now()
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    runs = {
        kind: list(
            kind.model.objects.filter(**{kind.fields.status: Status.RUNNING}).values_list(
                "pk",
                kind.fields.started_at,
                kind.fields.worker,
                kind.fields.task_id,
                kind.fields.attempts,
            )
        )
        for kind in job_kinds()
    }
    census = _worker_census(runs, worker=worker, now=now)
    for kind, kind_runs in runs.items():
        for pk, token, run_worker, task_id, attempts in kind_runs:
            if not _run_is_lost(token, run_worker, task_id, census=census, now=now):
                continue
            if attempts >= settings.PWSCUP_SCORING_MAX_ATTEMPTS:
                counts["failed"] += _fail_exhausted(kind, pk=pk, token=token, now=now)
            elif job_requeue(model=kind.model, pk=pk, token=token, fields=kind.fields):
                broker.job_send(kind.task, pk)
                counts["requeued"] += 1
    counts["resent"] = _resend_lost_messages(now=now)
    return counts


def _worker_census(runs, *, worker: str, now) -> dict[str, set[str]] | None:
    """Who runs what, asked only when some run could be orphaned; None if not trusted."""
    if not any(
        run_worker and token < now - SEND_GRACE
        for kind_runs in runs.values()
        for _pk, token, run_worker, _task_id, _attempts in kind_runs
    ):
        return None
    census = broker.worker_census()
    if census is None or (worker and worker not in census):
        return None
    return census


def _run_is_lost(token, run_worker: str, task_id: str, *, census, now) -> bool:
    """Past the hard time limit, or its worker does not answer or no longer runs its task
    (a worker restarted under the same hostname runs other tasks)."""
    if token < stale_before(now):
        return True
    if census is None or not run_worker or token >= now - SEND_GRACE:
        return False
    return task_id not in census.get(run_worker, ())


def _fail_exhausted(kind: JobKind, *, pk: int, token, now) -> int:
    fields = kind.fields
    failed = exhausted_values(fields)
    if fields.finished_at:
        failed[fields.finished_at] = now
    return kind.model.objects.filter(
        pk=pk, **{fields.status: Status.RUNNING, fields.started_at: token}
    ).update(**failed)


def _resend_lost_messages(*, now) -> int:
    """Send again the QUEUED jobs whose message was sent too long ago. The broker's own
    queues are not read (no transport exposes them through a public API); the conditional
    update sends each at most once per interval, even with two reapers at work."""
    before = now - dt.timedelta(seconds=settings.PWSCUP_QUEUED_RESEND_SECONDS)
    resent = 0
    for kind in job_kinds():
        fields = kind.fields
        waiting = kind.model.objects.filter(
            **{fields.status: Status.QUEUED, f"{fields.queued_at}__lt": before}
        ).values_list("pk", fields.queued_at)
        for pk, queued_at in waiting:
            still_waiting = Q(**{fields.status: Status.QUEUED}) & Q(**{fields.queued_at: queued_at})
            if kind.model.objects.filter(still_waiting, pk=pk).update(**{fields.queued_at: now}):
                broker.job_send(kind.task, pk)
                resent += 1
    return resent


def rounds_auto_freeze(*, now=None) -> list[int]:
    """Ask for the freeze of every round whose anonymization phase has closed and that
    asks for it (a background operation; a round whose freeze is under way is skipped).

    Uploads accepted before the phase closed but still being scored are waited for (up
    to ``AUTO_FREEZE_WAITS_AT_MOST``), so that the freeze sees them: once frozen, the
    published target is what stands for the team everywhere.
    """
    now = now or timezone.now()
    frozen = []
    due = Round.objects.filter(
        auto_freeze=True,
        frozen_at__isnull=True,
        phases__kind=Phase.Kind.ANONYMIZATION,
        phases__closes_at__lte=now,
    ).distinct()
    freezing = RoundOperation.objects.filter(
        kind=RoundOperation.Kind.FREEZE, status__in=(Status.QUEUED, Status.RUNNING)
    ).values("round_id")
    for round_ in due.exclude(pk__in=freezing):
        if _uploads_in_flight(round=round_, now=now):
            continue
        round_freeze_request(round=round_, now=now)
        frozen.append(round_.pk)
    return frozen


def _uploads_in_flight(*, round: Round, now) -> bool:
    return AnonymizationSubmission.objects.filter(
        phase__round=round,
        phase__closes_at__gt=now - AUTO_FREEZE_WAITS_AT_MOST,
        status__in=(Status.QUEUED, Status.RUNNING),
    ).exists()
