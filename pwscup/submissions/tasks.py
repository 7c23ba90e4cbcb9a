"""The core's tasks: the reaper, and the options every kind's scoring task uses."""

from celery import shared_task
from django.conf import settings

from pwscup.submissions.services.maintenance import jobs_reap

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
