"""Thin Celery tasks (``job_task``): a program version's or an upload's primary key in, one
service call. A run's own time is bounded by the sandbox (the round's limit, up to a day) and
a build's by pip's timeout, so the tasks take the scoring's options without its soft time
limit."""

from pwscup.kinds.kind_tasks import job_task
from pwscup.scorer import services
from pwscup.submissions.tasks import SCORING

SCORER = {**SCORING, "soft_time_limit": None, "time_limit": 24 * 3600 + 900}


build_program = job_task(services.BUILD_TASK, services.program_build, "program_id", **SCORER)
score_release = job_task(
    services.SCORE_RELEASE_TASK, services.release_score, "release_id", **SCORER
)
score_attack = job_task(services.SCORE_ATTACK_TASK, services.attack_score, "attack_id", **SCORER)
rank = job_task(services.RANKING_TASK, services.ranking_score, "run_id", **SCORER)
