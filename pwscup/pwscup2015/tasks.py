"""The 2015 game's thin Celery tasks (``job_task``): a primary key in, one service call,
retries and limits here; each task's name is its ``broker`` constant."""

from celery import shared_task
from celery.signals import worker_init

from pwscup.kinds.kind_tasks import job_task
from pwscup.pwscup2015 import broker, services
from pwscup.pwscup2015.warmup import on_worker_init
from pwscup.submissions.tasks import SCORING

# Before the pool starts: the URL resolver, the CSV reader and the open rounds' prepared
# originals, inherited by every pool process (pwscup/pwscup2015/warmup.py).
worker_init.connect(on_worker_init, weak=False, dispatch_uid="pwscup.pwscup2015.warm_worker")


score_anonymization = job_task(
    broker.SCORE_ANONYMIZATION,
    services.anonymization_submission_score,
    "submission_id",
    **SCORING,
)
score_attack = job_task(
    broker.SCORE_ATTACK, services.attack_submission_score, "submission_id", **SCORING
)
score_builtin_attacks = job_task(
    broker.SCORE_BUILTIN_ATTACKS, services.target_builtin_score, "target_id", **SCORING
)
run_round_operation = job_task(
    broker.RUN_ROUND_OPERATION, services.round_operation_run, "operation_id", **SCORING
)


@shared_task(ignore_result=True)
def auto_freeze_rounds() -> list:
    return services.rounds_auto_freeze()
