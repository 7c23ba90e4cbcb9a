"""The operator endpoint: database, broker (the real Redis of the test settings), workers."""

import os
import signal
import threading
import time

import pytest
from django.core.cache import cache
from django.db import connection

from pwscup import celery_app
from pwscup.core import selectors
from tests.support import silent_port

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_cache():
    """The worker count is cached between requests: each test starts without one."""
    cache.clear()
    yield
    cache.clear()


class CountingPing:
    """Stands in for ``celery_app.control.ping``: counts the broadcasts, answers ``workers``."""

    def __init__(self, workers: int, delay: float = 0.0):
        self.workers = workers
        self.delay = delay
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, *args, **kwargs):
        with self._lock:
            self.calls += 1
        time.sleep(self.delay)
        return [{f"worker-{i}@host": {"ok": "pong"}} for i in range(self.workers)]


def _eventually(check, seconds: float = 5.0):
    """The refresh after an interval runs beside the request that starts it."""
    deadline = time.monotonic() + seconds
    while not (result := check()) and time.monotonic() < deadline:
        time.sleep(0.02)
    return result


def _assert_never_cached(response):
    cache_control = response.get("Cache-Control", "")
    assert "no-cache" in cache_control or "max-age=0" in cache_control


@pytest.mark.worker
@pytest.mark.django_db(transaction=True)
def test_healthz_with_a_real_worker_reports_ok_and_the_worker(client, celery_worker_process):
    # The first ping of a process (its 1 s timeout, on a busy machine) may outlast the
    # endpoint's deadline: that answer says "error: timeout", the next ones the ping's count.
    response = _eventually(lambda: (r := client.get("/healthz")).status_code == 200 and r)
    assert response, client.get("/healthz").json()
    assert response["Content-Type"] == "application/json"
    _assert_never_cached(response)
    payload = response.json()
    assert payload["status"] == "ok"
    assert payload["database"] == "ok"
    assert payload["broker"] == "ok"
    assert payload["workers"] >= 1
    assert payload["queue"] == celery_app.conf.task_default_queue


def test_healthz_is_degraded_when_no_worker_answers(client, monkeypatch):
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=0))
    response = client.get("/healthz")
    assert response.status_code == 503
    _assert_never_cached(response)
    assert response.json() == {
        "status": "degraded",
        "database": "ok",
        "cache": "ok",
        "storage": "ok",
        "broker": "ok",
        "workers": 0,
        "queue": celery_app.conf.task_default_queue,
    }


def test_rapid_requests_send_one_ping_per_interval(client, monkeypatch, settings):
    # An interval no run of 30 requests can outlast, however loaded the machine: the test
    # asserts the count, never the clock. The interval's end is the lock's expiry, made here
    # by removing the lock (what the cache does when its timeout passes).
    settings.PWSCUP_HEALTHZ_PING_INTERVAL = 3600.0
    ping = CountingPing(workers=2)
    monkeypatch.setattr(celery_app.control, "ping", ping)
    payloads = [client.get("/healthz").json() for _ in range(30)]
    assert ping.calls == 1
    assert {(p["status"], p["workers"]) for p in payloads} == {("ok", 2)}
    assert cache.get(selectors.PING_LOCK_KEY) is not None  # the interval's lock is held
    cache.delete(selectors.PING_LOCK_KEY)  # the interval has passed: the next request refreshes
    ping.workers = 3
    # It answers at once with the last count (the ping may wait out its timeout)...
    assert client.get("/healthz").json()["workers"] == 2
    # ...and the refresh running beside it brings the new one.
    assert _eventually(lambda: client.get("/healthz").json()["workers"] == 3)
    assert ping.calls == 2


def test_a_slow_refresh_holds_up_no_request(client, monkeypatch, settings):
    # Once there is a count, the ping after each interval (a broadcast that waits out its
    # timeout) runs beside the requests: they are all answered while it is still running.
    settings.PWSCUP_HEALTHZ_PING_INTERVAL = 0.2
    ping = CountingPing(workers=1)
    monkeypatch.setattr(celery_app.control, "ping", ping)
    assert client.get("/healthz").status_code == 200
    gate = threading.Event()
    running = threading.Event()

    def held_ping(*args, **kwargs):
        running.set()
        gate.wait(10)
        return ping(*args, **kwargs)

    monkeypatch.setattr(celery_app.control, "ping", held_ping)
    time.sleep(0.25)
    try:
        answers = [client.get("/healthz").json()["workers"] for _ in range(5)]
        assert running.wait(5)
        assert answers == [1] * 5
        assert ping.calls == 1  # the refresh is still held: every answer came before it
    finally:
        gate.set()
    assert _eventually(lambda: ping.calls == 2)


def test_concurrent_requests_share_the_one_running_ping(monkeypatch):
    # Eight requests arrive together while the first ping takes 0.3 s: one broadcast in all,
    # and every request reports its answer (none says 0 workers meanwhile).
    ping = CountingPing(workers=1, delay=0.3)
    monkeypatch.setattr(celery_app.control, "ping", ping)
    counts = []
    threads = [
        threading.Thread(target=lambda: counts.append(selectors.worker_count())) for _ in range(8)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert ping.calls == 1
    assert counts == [1] * 8


def test_healthz_reports_an_unreachable_broker_as_degraded(client, monkeypatch):
    # Nothing listens on port 1: the broker check must fail fast and say so (503).
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    ping = CountingPing(workers=1)
    monkeypatch.setattr(celery_app.control, "ping", ping)
    response = client.get("/healthz")
    assert response.status_code == 503
    payload = response.json()
    assert payload["status"] == "degraded"
    assert payload["database"] == "ok"
    assert payload["broker"] == "error: OperationalError"
    assert payload["workers"] == 0
    assert ping.calls == 0


@pytest.mark.django_db(transaction=True)
def test_healthz_reports_a_database_that_is_down_as_degraded(client, monkeypatch):
    # A real failed connection: the server's port is swapped for one nothing listens on.
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    connection.close()
    with monkeypatch.context() as patch:
        patch.setitem(connection.settings_dict, "PORT", "1")
        patch.setitem(connection.settings_dict, "HOST", "127.0.0.1")
        try:
            response = client.get("/healthz")
        finally:
            connection.close()
    assert response.status_code == 503
    payload = response.json()
    assert payload["status"] == "degraded"
    assert payload["database"] == "error: OperationalError"
    assert payload["broker"] == "ok"
    assert payload["workers"] == 1


def test_broker_is_checked_once_per_interval_and_a_lost_broker_is_reported_after_it(
    client, monkeypatch, settings
):
    # Opening a broker connection costs more than the rest of the request: it is checked by
    # the same refresh as the worker count, and a broker lost meanwhile shows at the next one.
    # The interval outlasts the 20 requests however loaded the machine; its end is the lock's
    # expiry, made by removing the lock.
    settings.PWSCUP_HEALTHZ_PING_INTERVAL = 3600.0
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    checks = []
    real_check = selectors.broker_status
    monkeypatch.setattr(selectors, "broker_status", lambda: checks.append(1) or real_check())
    assert {client.get("/healthz").status_code for _ in range(20)} == {200}
    assert len(checks) == 1
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    assert client.get("/healthz").status_code == 200  # within the interval: the last check
    cache.delete(selectors.PING_LOCK_KEY)  # the interval has passed
    assert client.get("/healthz").status_code == 200  # starts the refresh, answers the last
    assert _eventually(lambda: client.get("/healthz").status_code == 503)
    response = client.get("/healthz")
    assert response.json()["broker"] == "error: OperationalError"
    assert response.json()["workers"] == 0
    assert len(checks) >= 2  # one more per interval since (a failing check takes its time)


def test_healthz_checks_the_broker_itself_when_the_shared_cache_is_down(client, monkeypatch):
    def unreachable(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(selectors.cache, "add", unreachable)
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["broker"] == "error: OperationalError"


def test_healthz_reaches_the_bucket_and_is_degraded_when_it_cannot(
    client, monkeypatch, settings, s3_server, s3_bucket
):
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    assert client.get("/healthz").json()["storage"] == "ok"
    # The same bucket on a port nothing listens on: uploads could not be kept.
    unreachable = s3_server.storage(s3_bucket)
    port = s3_server.endpoint_url.rsplit(":", 1)[1]
    unreachable["OPTIONS"]["endpoint_url"] = s3_server.endpoint_url.replace(port, "9")
    settings.STORAGES = {**settings.STORAGES, "default": unreachable}
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["storage"].startswith("error: ")
    assert response.json()["database"] == "ok" and response.json()["workers"] == 1


# --- every fault answered within the deadline ------------------------------------------------

# Generous (four times the test settings' PWSCUP_HEALTHZ_TIMEOUT): a hang, not a slow answer,
# is what fails.
DEADLINE_CLIENT_TIMEOUT = 20.0


def _healthz_in_time(client) -> tuple[object, float]:
    """/healthz asked in a thread of its own: (the response, or None when it had not answered
    after ``DEADLINE_CLIENT_TIMEOUT`` — a hang; seconds it took)."""
    answers = []
    started = time.monotonic()
    asking = threading.Thread(target=lambda: answers.append(client.get("/healthz")), daemon=True)
    asking.start()
    asking.join(DEADLINE_CLIENT_TIMEOUT)
    return (answers[0] if answers else None), time.monotonic() - started


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_503_with_a_session_cookie_while_the_database_is_down(
    client, django_user_model, monkeypatch
):
    # A logged-in operator's browser sends its session cookie: the session is never looked up
    # (it lives in the database), so the answer is /healthz's 503, not a 500.
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    client.force_login(django_user_model.objects.create_user("operator", password="x" * 12))
    connection.close()
    with monkeypatch.context() as patch:
        patch.setitem(connection.settings_dict, "PORT", "1")
        patch.setitem(connection.settings_dict, "HOST", "127.0.0.1")
        try:
            response, _ = _healthz_in_time(client)
        finally:
            connection.close()
    assert response is not None
    assert response.status_code == 503
    assert response.json()["database"] == "error: OperationalError"


@pytest.mark.django_db(transaction=True)
def test_healthz_answers_in_time_while_the_database_hangs(client, django_user_model, monkeypatch):
    # The database accepts connections and never answers (a frozen server): its check is
    # reported timed out, with a session cookie present too.
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    client.force_login(django_user_model.objects.create_user("operator", password="x" * 12))
    connection.close()
    with silent_port() as port, monkeypatch.context() as patch:
        patch.setitem(connection.settings_dict, "PORT", str(port))
        patch.setitem(connection.settings_dict, "HOST", "127.0.0.1")
        try:
            response, took = _healthz_in_time(client)
        finally:
            connection.close()
    print(f"\n[database hangs] /healthz answered in {took:.2f} s")
    assert response is not None, "/healthz hung with the database"
    assert response.status_code == 503
    assert response.json()["database"] == "error: timeout"
    assert response.json()["storage"] == "ok"


def test_healthz_answers_in_time_while_the_broker_hangs(client, monkeypatch):
    # Redis accepts the broker's connection and never answers.
    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    with silent_port() as port:
        monkeypatch.setattr(celery_app.conf, "broker_url", f"redis://127.0.0.1:{port}/0")
        response, took = _healthz_in_time(client)
    print(f"\n[broker hangs] /healthz answered in {took:.2f} s")
    assert response is not None, "/healthz hung with the broker"
    assert response.status_code == 503
    assert response.json()["broker"].startswith("error: ")
    assert response.json()["database"] == "ok"


def test_healthz_answers_in_time_while_the_bucket_is_frozen(
    client, monkeypatch, settings, tmp_path
):
    # moto's server stopped (SIGSTOP): it accepts connections and never answers. A server of
    # this test's own, so no other test meets the frozen one.
    from tests.s3 import S3Server

    monkeypatch.setattr(celery_app.control, "ping", CountingPing(workers=1))
    s3 = S3Server(log_path=tmp_path / "moto.log").start()
    try:
        bucket = s3.new_bucket()
        settings.STORAGES = {**settings.STORAGES, "default": s3.storage(bucket)}
        assert client.get("/healthz").json()["storage"] == "ok"
        os.kill(s3.process.pid, signal.SIGSTOP)
        try:
            first, took = _healthz_in_time(client)
            again, took_again = _healthz_in_time(client)  # the check hung before is not repeated
        finally:
            os.kill(s3.process.pid, signal.SIGCONT)
        print(f"\n[bucket frozen] /healthz answered in {took:.2f} s, then {took_again:.2f} s")
        for response in (first, again):
            assert response is not None, "/healthz hung with the bucket"
            assert response.status_code == 503
            assert response.json()["storage"] == "error: timeout"
            assert response.json()["database"] == "ok"
        # The server answers again: so does the storage check, once its hung run has ended.
        assert _eventually(lambda: client.get("/healthz").json()["storage"] == "ok", 60)
    finally:
        s3.stop()
