"""The 2015 game's thin Celery tasks: a primary key in, one service call, retries and limits
here."""

from celery import shared_task
from celery.signals import worker_init

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.warmup import on_worker_init
from pwscup.submissions.tasks import SCORING

# Before the pool starts: the URL resolver, the CSV reader and the open rounds' prepared
# originals, inherited by every pool process (pwscup/pwscup2015/warmup.py).
worker_init.connect(on_worker_init, weak=False, dispatch_uid="pwscup.pwscup2015.warm_worker")


@shared_task(bind=True, **SCORING)
def score_anonymization(self, submission_id: int) -> None:
    services.anonymization_submission_score(
        submission_id=submission_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, **SCORING)
def score_attack(self, submission_id: int) -> None:
    services.attack_submission_score(
        submission_id=submission_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, **SCORING)
def score_builtin_attacks(self, target_id: int) -> None:
    services.target_builtin_score(
        target_id=target_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(bind=True, **SCORING)
def run_round_operation(self, operation_id: int) -> None:
    services.round_operation_run(
        operation_id=operation_id, task_id=self.request.id, worker=self.request.hostname
    )


@shared_task(ignore_result=True)
def auto_freeze_rounds() -> list:
    return services.rounds_auto_freeze()
