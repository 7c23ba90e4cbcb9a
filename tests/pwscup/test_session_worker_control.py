"""The session worker (``tests/conftest.py``) is reached over the run's broker, also while a
module sends this process's Celery messages to a Redis of its own (``broker_at``, as
test_s3_storage.py does for all its tests). Each transactional test's teardown asks the
session worker whether it is busy before the flush; asked through the current app, the
question went to the module's Redis, where the worker does not listen, and each teardown
waited out the question's timeouts for a reply that never came."""

import os
import socket

import pytest
from celery import current_app

from tests.conftest import _session_control
from tests.pwscup.brokers import broker_at

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_session_worker_answers_while_the_app_uses_another_broker(
    celery_worker_process, redis_server
):
    hostname = f"test-worker-{os.getpid()}@{socket.gethostname()}"  # the session worker's
    with broker_at(redis_server.url):
        control = _session_control()
        queues = control.inspect(destination=[hostname], timeout=5.0).active_queues()
        # The guard: the current app really asks at the module's Redis, where nobody answers.
        unanswered = current_app.control.inspect(destination=[hostname], timeout=0.5).ping()
    assert hostname in (queues or {})
    assert not unanswered
