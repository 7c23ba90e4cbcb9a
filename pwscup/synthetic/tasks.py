"""Thin Celery tasks: a release's, a target's or an attack's primary key in, one service
call; limits as the scoring's."""

from celery import shared_task

from pwscup.submissions.tasks import SCORING
from pwscup.synthetic import services


@shared_task(bind=True, name=services.SCORE_RELEASE_TASK, **SCORING)
def score_release(self, release_id: int) -> None:
    services.release_score(
        release_id=release_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, name=services.SCORE_TARGET_TASK, **SCORING)
def score_target(self, target_id: int) -> None:
    services.target_score(
        target_id=target_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, name=services.SCORE_ATTACK_TASK, **SCORING)
def score_attack(self, attack_id: int) -> None:
    services.attack_score(
        attack_id=attack_id, task_id=self.request.id, worker=self.request.hostname
    )
