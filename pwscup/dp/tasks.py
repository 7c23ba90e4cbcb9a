"""Thin Celery tasks of the DP round: the close (every estimate scored and the paper's
baselines run at every level, too long for a page view) and the check of an uploaded
estimate run on the worker.

``dp_round_score`` is idempotent under the round's row lock and writes everything in one
transaction: a worker that dies mid-run leaves the round unscored, and the periodic
``score_closed_dp_rounds`` (celery beat, every reaper interval) sends it again.
"""

from celery import shared_task
from django.conf import settings

from pwscup.dp import services
from pwscup.dp.services.common import CHECK_DP_ESTIMATE

DP_SCORING = dict(
    acks_late=True,
    reject_on_worker_lost=True,
    soft_time_limit=settings.PWSCUP_SCORING_SOFT_TIME_LIMIT,
    time_limit=settings.PWSCUP_SCORING_HARD_TIME_LIMIT,
    ignore_result=True,
)


@shared_task(**DP_SCORING)
def score_dp_round(dp_round_id: int) -> None:
    services.dp_round_score_by_id(dp_round_id=dp_round_id)


@shared_task(ignore_result=True)
def score_closed_dp_rounds() -> list:
    return services.dp_rounds_score_closed()


@shared_task(bind=True, name=CHECK_DP_ESTIMATE, **DP_SCORING)
def check_dp_estimate(self, estimate_id: int) -> None:
    services.dp_estimate_check(
        estimate_id=estimate_id, task_id=self.request.id, worker=self.request.hostname
    )
