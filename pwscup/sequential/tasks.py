"""Thin Celery tasks: a release's or an attack's primary key in, one service call; limits as
the scoring's."""

from celery import shared_task

from pwscup.kinds.kind_tasks import job_task
from pwscup.sequential import services
from pwscup.submissions.tasks import SCORING

check_release = job_task(
    services.CHECK_RELEASE_TASK, services.release_check, "release_id", **SCORING
)
score_attack = job_task(services.SCORE_ATTACK_TASK, services.attack_score, "attack_id", **SCORING)


@shared_task(ignore_result=True)
def auto_freeze_steps() -> list:
    """Freeze each release step whose close has passed (celery beat, settings)."""
    return services.steps_auto_freeze()
