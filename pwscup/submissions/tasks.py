"""The core's tasks: the reaper, the options every kind's scoring task uses, and the
memory bound of every worker process."""

from celery import shared_task
from celery.signals import worker_process_init
from django.conf import settings

from pwscup.submissions.limits import on_worker_process_init
from pwscup.submissions.services.auto_freeze import rounds_auto_freeze
from pwscup.submissions.services.maintenance import jobs_reap

# Every pool process of every worker bounds its memory (pwscup/submissions/limits.py).
worker_process_init.connect(
    on_worker_process_init, weak=False, dispatch_uid="pwscup.submissions.memory_bound"
)

SCORING = dict(
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.PWSCUP_SCORING_SOFT_TIME_LIMIT,
    time_limit=settings.PWSCUP_SCORING_HARD_TIME_LIMIT,
    ignore_result=True,
)


@shared_task(bind=True, ignore_result=True)
def reap_stuck_jobs(self) -> dict:
    return jobs_reap(worker=self.request.hostname)


@shared_task(ignore_result=True)
def auto_freeze_rounds() -> list:
    """The rounds frozen at their release phase's close (every kind that declares it)."""
    return rounds_auto_freeze()
