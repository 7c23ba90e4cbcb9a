"""Thin Celery tasks: a release's, a target's or an attack's primary key in, one service
call; limits as the scoring's."""

from pwscup.kinds.kind_tasks import job_task
from pwscup.submissions.tasks import SCORING
from pwscup.synthetic import services

score_release = job_task(
    services.SCORE_RELEASE_TASK, services.release_score, "release_id", **SCORING
)
score_target = job_task(services.SCORE_TARGET_TASK, services.target_score, "target_id", **SCORING)
score_attack = job_task(services.SCORE_ATTACK_TASK, services.attack_score, "attack_id", **SCORING)
