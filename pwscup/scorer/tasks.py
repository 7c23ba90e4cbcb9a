"""Thin Celery tasks: a program version's or an upload's primary key in, one service call.
A run's own time is bounded by the sandbox (the round's limit, up to a day) and a build's by
pip's timeout, so the tasks take the scoring's options without its soft time limit."""

from celery import shared_task

from pwscup.scorer import services
from pwscup.submissions.tasks import SCORING

SCORER = {**SCORING, "soft_time_limit": None, "time_limit": 24 * 3600 + 900}


@shared_task(bind=True, name=services.BUILD_TASK, **SCORER)
def build_program(self, program_id: int) -> None:
    services.program_build(
        program_id=program_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, name=services.SCORE_RELEASE_TASK, **SCORER)
def score_release(self, release_id: int) -> None:
    services.release_score(
        release_id=release_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, name=services.SCORE_ATTACK_TASK, **SCORER)
def score_attack(self, attack_id: int) -> None:
    services.attack_score(
        attack_id=attack_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, name=services.RANKING_TASK, **SCORER)
def rank(self, run_id: int) -> None:
    services.ranking_score(run_id=run_id, task_id=self.request.id, worker=self.request.hostname)
