"""Thin Celery tasks of the DP round: the close (every estimate scored and the paper's
baselines run at every level, too long for a page view) and the check of an uploaded
estimate run on the worker, with the scoring's limits (``SCORING``, the core's).

``dp_round_score`` is idempotent under the round's row lock and writes everything in one
transaction: a worker that dies mid-run leaves the round unscored, and the periodic
``score_closed_dp_rounds`` (celery beat, every reaper interval) sends it again.
"""

from celery import shared_task

from pwscup.dp import services
from pwscup.dp.services.common import CHECK_DP_ESTIMATE
from pwscup.kinds.kind_tasks import job_task
from pwscup.submissions.tasks import SCORING


@shared_task(**SCORING)
def score_dp_round(dp_round_id: int) -> None:
    services.dp_round_score_by_id(dp_round_id=dp_round_id)


@shared_task(ignore_result=True)
def score_closed_dp_rounds() -> list:
    return services.dp_rounds_score_closed()


check_dp_estimate = job_task(
    CHECK_DP_ESTIMATE, services.dp_estimate_check, "estimate_id", **SCORING
)
