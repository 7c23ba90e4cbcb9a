"""What the broker and the workers hold, and sending a scoring job without losing it.

The database is the record of every job (its ``status``); a broker message is only a
wake-up call for a worker. So a message may be lost (a broker restarted without its
data, an upload made while the broker was down): the reaper sends a job again when it has
waited too long (``maintenance.jobs_reap``). A message sent twice does no harm: the job's
transitions are conditional.

Tasks are sent by name: a kind's ``tasks.py`` imports its services, so the services cannot
import the tasks. They are sent, and the workers asked, through Celery's ``current_app``, the
project's app in every Django process (``pwscup.core.apps``), as ``shared_task``'s own
``delay`` does: a test can make an app of its own current to send elsewhere
(``tests.pwscup.brokers.broker_at``).
"""

import logging
from dataclasses import dataclass

from celery import current_app
from django.db import transaction
from kombu.exceptions import KombuError

log = logging.getLogger(__name__)

# What a broker that is down or unreachable raises while publishing.
BROKER_ERRORS = (KombuError, OSError)


@dataclass
class Dispatch:
    """Whether a job's message reached the broker: None until the transaction commits."""

    sent: bool | None = None


def job_send(task: str, pk: int, *, countdown: float | None = None) -> Dispatch:
    """Send ``task(pk)`` once the current transaction commits (like ``delay_on_commit``), to
    run at once or ``countdown`` seconds later.

    A broker that is down does not lose the job nor fail the caller: the row is already
    committed as QUEUED, and the reaper sends it when the broker is back.
    """
    dispatch = Dispatch()

    def publish() -> None:
        try:
            current_app.send_task(task, args=(pk,), countdown=countdown)
        except BROKER_ERRORS as error:
            log.warning("broker unreachable, %s(%s) stays queued: %s", task, pk, error)
            dispatch.sent = False
        else:
            dispatch.sent = True

    transaction.on_commit(publish)
    return dispatch


def worker_census() -> dict[str, set[str]] | None:
    """The workers answering now, each with the ids of the tasks it is running; None if
    they could not be asked. (A prefork worker's main process answers while its pool
    runs a job.)"""
    try:
        replies = current_app.control.inspect(timeout=1.0).active() or {}
    except BROKER_ERRORS as error:
        log.warning("cannot ask the workers: %s", error)
        return None
    return {hostname: {task["id"] for task in tasks or []} for hostname, tasks in replies.items()}
