"""What the broker and the workers hold, and sending a scoring job without losing it.

The database is the record of every job (its ``status``); a broker message is only a
wake-up call for a worker. So a message may be lost (a broker restarted without its
data, an upload made while the broker was down): the reaper compares the QUEUED jobs
with the messages the broker still holds and sends the missing ones again. A message
sent twice does no harm: the job's transitions are conditional.

Tasks are sent by name: ``tasks.py`` imports the services, so the services cannot
import the tasks.
"""

import datetime as dt
import json
import logging
from base64 import b64decode
from dataclasses import dataclass
from pathlib import Path

from django.db import transaction
from kombu.exceptions import KombuError

from pwscup import celery_app

log = logging.getLogger(__name__)

SCORE_ANONYMIZATION = "pwscup.submissions.tasks.score_anonymization"
SCORE_ATTACK = "pwscup.submissions.tasks.score_attack"
SCORE_BUILTIN_ATTACKS = "pwscup.submissions.tasks.score_builtin_attacks"
RUN_ROUND_OPERATION = "pwscup.submissions.tasks.run_round_operation"

# What a broker that is down or unreachable raises while publishing.
BROKER_ERRORS = (KombuError, OSError)


@dataclass
class Dispatch:
    """Whether a job's message reached the broker: None until the transaction commits."""

    sent: bool | None = None


def job_send(task: str, pk: int) -> Dispatch:
    """Send ``task(pk)`` once the current transaction commits (like ``delay_on_commit``).

    A broker that is down does not lose the job nor fail the caller: the row is already
    committed as QUEUED, and the reaper sends it when the broker is back.
    """
    dispatch = Dispatch()

    def publish() -> None:
        try:
            celery_app.send_task(task, args=(pk,))
        except BROKER_ERRORS as error:
            log.warning("broker unreachable, %s(%s) stays queued: %s", task, pk, error)
            dispatch.sent = False
        else:
            dispatch.sent = True

    transaction.on_commit(publish)
    return dispatch


@dataclass(frozen=True)
class PendingMessage:
    task: str
    pk: int | None
    delivered_at: float | None  # epoch seconds; None while still waiting in the queue


def pending_messages() -> list[PendingMessage] | None:
    """The scoring messages the broker holds for our queue: waiting, or delivered to a
    worker and not yet acknowledged. None when the transport cannot be read (then the
    reaper falls back to resending jobs that waited too long)."""
    queue = celery_app.conf.task_default_queue
    with celery_app.connection_for_read() as connection:
        reader = _READERS.get(connection.transport.driver_type)
        if reader is None:
            return None
        try:
            return reader(connection.default_channel, queue)
        except (*connection.connection_errors, *connection.channel_errors) as error:
            log.warning("cannot read the broker's queue: %s", error)
            return None


def _redis_messages(channel, queue: str) -> list[PendingMessage]:
    client = channel.client
    keys = [channel._q_for_pri(queue, step) for step in channel.priority_steps]
    with client.pipeline() as pipe:
        for key in dict.fromkeys(keys):
            pipe.lrange(key, 0, -1)
        pipe.hgetall(channel.unacked_key)
        pipe.zrange(channel.unacked_index_key, 0, -1, withscores=True)
        *waiting, unacked, index = pipe.execute()
    messages = [_message(raw, None) for batch in waiting for raw in batch]
    delivered_at = {_text(tag): at for tag, at in index}
    for tag, entry in unacked.items():
        raw, _exchange, routing_key = json.loads(entry)
        if routing_key == queue:
            messages.append(_message(raw, delivered_at.get(_text(tag), 0.0)))
    return messages


def _filesystem_messages(channel, queue: str) -> list[PendingMessage]:
    messages = []
    for path in Path(channel.data_folder_in).glob(f"*.{queue}.msg"):
        try:
            messages.append(_message(path.read_bytes(), None))
        except (OSError, ValueError):  # taken by a worker, or still being written
            continue
    return messages


_READERS = {"redis": _redis_messages, "filesystem": _filesystem_messages}


def _text(value) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _message(raw, delivered_at: float | None) -> PendingMessage:
    payload = json.loads(raw) if isinstance(raw, str | bytes) else raw
    headers = payload.get("headers") or {}
    body = payload.get("body", "")
    if (payload.get("properties") or {}).get("body_encoding") == "base64":
        body = b64decode(body)
    try:
        args = json.loads(body)[0]
        pk = int(args[0])
    except (ValueError, TypeError, IndexError, KeyError):
        pk = None
    return PendingMessage(task=headers.get("task", ""), pk=pk, delivered_at=delivered_at)


def queued_in_broker(*, task: str, messages: list[PendingMessage], now: dt.datetime, stale: float):
    """Primary keys whose ``task`` message is waiting, or was delivered less than ``stale``
    seconds ago (a delivered message held longer by a QUEUED job's worker was lost with it)."""
    cutoff = now.timestamp() - stale
    return {
        m.pk
        for m in messages
        if m.task == task and (m.delivered_at is None or m.delivered_at >= cutoff)
    }


def worker_census() -> dict[str, set[str]] | None:
    """The workers answering now, each with the ids of the tasks it is running; None if
    they could not be asked. (A prefork worker's main process answers while its pool
    runs a job.)"""
    try:
        replies = celery_app.control.inspect(timeout=1.0).active() or {}
    except BROKER_ERRORS as error:
        log.warning("cannot ask the workers: %s", error)
        return None
    return {hostname: {task["id"] for task in tasks or []} for hostname, tasks in replies.items()}
