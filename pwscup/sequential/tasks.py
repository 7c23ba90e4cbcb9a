"""Thin Celery tasks: a release's or an attack's primary key in, one service call; limits as
the scoring's."""

from celery import shared_task

from pwscup.sequential import services
from pwscup.submissions.tasks import SCORING


@shared_task(bind=True, name=services.CHECK_RELEASE_TASK, **SCORING)
def check_release(self, release_id: int) -> None:
    services.release_check(
        release_id=release_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, name=services.SCORE_ATTACK_TASK, **SCORING)
def score_attack(self, attack_id: int) -> None:
    services.attack_score(
        attack_id=attack_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(ignore_result=True)
def auto_freeze_steps() -> list:
    """Freeze each release step whose close has passed (celery beat, settings)."""
    return services.steps_auto_freeze()
