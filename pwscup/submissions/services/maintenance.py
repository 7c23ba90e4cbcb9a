"""The reaper: every kind's jobs that were lost with their worker or their broker message
are requeued or sent again (``jobs_reap``, run by Celery beat)."""

import datetime as dt

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from pwscup.submissions import broker
from pwscup.submissions.models import PENDING, Status
from pwscup.submissions.registry import job_kinds
from pwscup.submissions.services.jobs import JobKind, exhausted_values, job_requeue, stale_before
from pwscup.submissions.services.live import live_jobs_changed
from pwscup.submissions.services.outcomes import upload_outcome_told

# A step that ends an upload window (an automatic freeze, the scoring at a close) waits for
# uploads still being checked, at most this long after the window closed (the reaper makes
# every job end well before): ``uploads_in_flight``.
AUTO_FREEZE_WAITS_AT_MOST = dt.timedelta(hours=1)


def uploads_in_flight(uploads, *, closed_at, now=None) -> bool:
    """Whether the step that ends a window closed at ``closed_at`` waits (every kind's rule:
    what is accepted before the close counts): some of ``uploads`` (a queryset of job rows,
    those accepted before the close) are still queued or being checked, and the window
    closed less than ``AUTO_FREEZE_WAITS_AT_MOST`` ago. A run still unfinished after that
    has long been requeued or failed by the reaper, and the step goes on without it."""
    now = now or timezone.now()
    if now - closed_at >= AUTO_FREEZE_WAITS_AT_MOST:
        return False
    return uploads.filter(status__in=PENDING).exists()


def claim_grace() -> dt.timedelta:
    """A run claimed this recently is left alone: its worker may be starting
    (``PWSCUP_REAPER_CLAIM_GRACE_SECONDS``)."""
    return dt.timedelta(seconds=settings.PWSCUP_REAPER_CLAIM_GRACE_SECONDS)


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
            kind.model.objects.filter(status=Status.RUNNING).values_list(
                "pk", "started_at", "worker", "task_id", "attempts"
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
            elif job_requeue(model=kind.model, pk=pk, token=token):
                broker.job_send(kind.task, pk)
                counts["requeued"] += 1
    counts["resent"] = _resend_lost_messages(now=now)
    return counts


def _worker_census(runs, *, worker: str, now) -> dict[str, set[str]] | None:
    """Who runs what, asked only when some run could be orphaned; None if not trusted."""
    if not any(
        run_worker and token < now - claim_grace()
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
    if census is None or not run_worker or token >= now - claim_grace():
        return False
    return task_id not in census.get(run_worker, ())


def _fail_exhausted(kind: JobKind, *, pk: int, token, now) -> int:
    failed_count = kind.model.objects.filter(pk=pk, status=Status.RUNNING, started_at=token).update(
        **exhausted_values(now)
    )
    if failed_count:
        live_jobs_changed(model=kind.model, pks=[pk])
        upload_outcome_told(model=kind.model, pk=pk, status=Status.FAILED)
    return failed_count


def _resend_lost_messages(*, now) -> int:
    """Send again the QUEUED jobs whose message was sent too long ago. The broker's own
    queues are not read (no transport exposes them through a public API); the conditional
    update sends each at most once per interval, even with two reapers at work."""
    before = now - dt.timedelta(seconds=settings.PWSCUP_QUEUED_RESEND_SECONDS)
    resent = 0
    for kind in job_kinds():
        waiting = kind.model.objects.filter(status=Status.QUEUED, queued_at__lt=before).values_list(
            "pk", "queued_at"
        )
        for pk, queued_at in waiting:
            still_waiting = Q(status=Status.QUEUED, queued_at=queued_at)
            if kind.model.objects.filter(still_waiting, pk=pk).update(queued_at=now):
                broker.job_send(kind.task, pk)
                resent += 1
    return resent
