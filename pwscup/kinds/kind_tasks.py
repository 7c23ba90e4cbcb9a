"""A kind's job task: the thin Celery task behind one of its background jobs (``RoundKind.jobs``).

Every such task is the same: the broker sends the job's primary key by the task's name
(``pwscup.submissions.broker.job_send``), and the task calls the one service that runs the
job with it, naming the Celery task and the worker host that run it (the job's state machine
records both, so that a job lost with its worker is taken over). The kind declares the name,
the service and the options (time limits, ``acks_late``); this module makes the task::

    score_release = job_task(
        services.SCORE_RELEASE_TASK, services.release_score, "release_id", **SCORING
    )
"""

from collections.abc import Callable

from celery import shared_task


def job_task(name: str, service: Callable, key: str, **options):
    """The Celery task ``name`` that runs ``service(<key>=pk, task_id=, worker=)`` on the
    primary key it is sent; ``options`` are ``shared_task``'s (limits, acknowledgement)."""

    def run(self, pk: int) -> None:
        service(**{key: pk}, task_id=self.request.id, worker=self.request.hostname)

    return shared_task(bind=True, name=name, **options)(run)
