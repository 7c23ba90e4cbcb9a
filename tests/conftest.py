"""Session-wide fixtures: a real Celery worker process on the real Redis broker."""

import os
import subprocess
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.support import child_env, wait_for, worker_command

# Property tests explore the same examples on every run (CI judges one run): a failure is
# reproducible, not a coin toss. HYPOTHESIS_PROFILE=explore searches anew each time.
hypothesis_settings.register_profile("ci", derandomize=True, database=None)
hypothesis_settings.register_profile("explore", derandomize=False)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup, django_db_blocker):
    """Start ``celery worker`` (prefork, concurrency 1) against the test database and queue.

    Tests using it must commit their data: mark them ``django_db(transaction=True)``.
    """
    from django.conf import settings

    from pwscup import celery_app

    env = child_env()
    log_path = Path(settings.MEDIA_ROOT) / "worker.log"
    log = open(log_path, "w")  # noqa: SIM115 - closed at teardown
    hostname = f"test-worker-{os.getpid()}@%h"
    process = subprocess.Popen(
        worker_command(hostname),
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(
            lambda: process.poll() is not None or celery_app.control.ping(timeout=0.5),
            timeout=60,
            what="the Celery worker to answer a ping",
        )
        if process.poll() is not None:
            pytest.fail(f"Celery worker exited: {log_path.read_text()[-3000:]}")
        yield process
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
        _clean_redis(settings.CELERY_BROKER_URL, settings.CELERY_TASK_DEFAULT_QUEUE)


def _clean_redis(url: str, queue: str) -> None:
    """Remove what this test run left in its Redis database: its queue and bindings, and
    the broadcast (pidbox) and unacked bookkeeping of the test workers."""
    import redis

    client = redis.Redis.from_url(url)
    patterns = (f"*{queue}*", "unacked*", "*pidbox*", "_kombu.binding_deadlines")
    keys = {key for pattern in patterns for key in client.scan_iter(pattern)}
    if keys:
        client.delete(*keys)


@pytest.fixture(scope="session", autouse=True)
def redis_test_keyspace():
    """Clean the run's Redis keys at the end, also when no worker ran (published jobs)."""
    yield
    from django.conf import settings

    try:
        if settings.CELERY_BROKER_URL.startswith("redis://"):
            _clean_redis(settings.CELERY_BROKER_URL, settings.CELERY_TASK_DEFAULT_QUEUE)
    except Exception as error:  # noqa: BLE001 - cleaning must not fail the run
        print(f"could not clean the Redis test keys: {error}")
