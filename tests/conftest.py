"""Session-wide fixtures (a real Celery worker process on the real Redis broker) and the
suite's schedule: the slow modules first, the tests that need the machine alone in a tail.

``scripts/test`` runs the suite in parallel (pytest-xdist, whole files per process), then
the tests marked ``alone`` one after another with nothing beside them
(``PWSCUP_TESTS_ALONE=only``). A test marked ``slow`` takes more than 20 s on its own and
says why in its docstring; its module is sent first, so that the run does not end waiting
for it. See docs/architecture.md, "Tests".
"""

import contextlib
import functools
import gc
import io
import os
import socket
import threading
import time
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

from tests.support import child_env, running, worker_command

# Property tests explore the same examples on every run (CI judges one run): a failure is
# reproducible, not a coin toss. HYPOTHESIS_PROFILE=explore searches anew each time. No
# deadline: an example's time is not what a property test judges (a loaded host made one
# example exceed Hypothesis's 200 ms and failed the suite as "flaky").
hypothesis_settings.register_profile("ci", derandomize=True, database=None, deadline=None)
hypothesis_settings.register_profile("explore", derandomize=False, deadline=None)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


def pytest_collection_modifyitems(config, items):
    """Schedule the run: under pytest-xdist the ``alone`` tests are left to the serial tail;
    ``PWSCUP_TESTS_ALONE=only`` keeps them alone; the modules holding a ``slow`` test go
    first (a stable sort: the order within and between the other modules is kept)."""
    tail = os.environ.get("PWSCUP_TESTS_ALONE", "")
    if tail not in ("", "only"):
        raise pytest.UsageError(f"PWSCUP_TESTS_ALONE={tail!r}: only 'only' is understood")
    parallel = bool(os.environ.get("PYTEST_XDIST_WORKER"))
    if tail or parallel:
        alone = [bool(item.get_closest_marker("alone")) for item in items]
        keep = [item for item, marked in zip(items, alone, strict=True) if marked == bool(tail)]
        left = [item for item, marked in zip(items, alone, strict=True) if marked != bool(tail)]
        if left:
            config.hook.pytest_deselected(items=left)
            items[:] = keep
        # scripts/test runs the serial tail only when the parallel part left a test for it.
        if parallel and left and os.environ.get("PWSCUP_TESTS_ALONE_LIST"):
            listed = "".join(f"{item.nodeid}\n" for item in left)
            Path(os.environ["PWSCUP_TESTS_ALONE_LIST"]).write_text(listed)
    slow_modules = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_modules)


def pytest_collection_finish(session):
    """The objects of the collection (every module, test item and fixture definition of the
    run: about 540,000 in a process that collects the whole suite) live until the process
    ends; frozen (``gc.freeze``), the cyclic garbage collector no longer walks them on each of
    its full collections, which then cost about half as much. What the tests make after this
    is collected as before. Over 1,100 tests in one process: 10.2 s of collector CPU, 7.0 s
    frozen."""
    gc.freeze()


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix):
    """This process's test database starts as a copy of a migrated template (PostgreSQL's
    ``CREATE DATABASE … TEMPLATE``; ``tests/migrated.py``): the suite's processes do not
    each pay the 10 s of CPU of migrating their own, and ``migrate`` still runs on it."""
    from django.conf import settings

    from tests.migrated import databases_from_template

    databases_from_template(settings.DATABASES)


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """pytest-django's test database, and before it is dropped at the session's end, no other
    connection to it (PostgreSQL refuses the drop, "being accessed by other users"): one this
    process's threads left open is ended, another process's waited for (10 s at most), and
    each is named in a warning (its process, client and last query)."""
    yield django_db_setup
    with django_db_blocker.unblock():
        _other_sessions_gone(timeout=10.0)


def _other_sessions_gone(*, timeout: float) -> None:
    import time
    import warnings

    from django.db import connection

    if connection.vendor != "postgresql":
        return
    query = (
        "SELECT pid, application_name, client_addr, backend_start, state, left(query, 200) "
        "FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()"
    )
    # A connection this very process left open (a thread a test started kept it, and is
    # gone: its name is this process's) cannot be in use any more: it is ended at once, so
    # that the drop succeeds, and named, so that its test can be found. Another process's
    # (a child still ending) is waited for.
    own = connection.settings_dict.get("OPTIONS", {}).get("application_name")
    deadline = time.monotonic() + timeout
    ended = []
    while True:
        with connection.cursor() as cursor:
            cursor.execute(query)
            others = cursor.fetchall()
            for row in others:
                if own and row[1] == own and row not in ended:
                    cursor.execute("SELECT pg_terminate_backend(%s)", [row[0]])
                    ended.append(row)
        others = [row for row in others if row not in ended]
        if not others or time.monotonic() > deadline:
            break
        time.sleep(0.2)
    connection.close()
    if others or ended:
        warnings.warn(
            f"still connected to the test database at its drop: {others + ended}"
            + (f"; this process's own, ended: {[row[0] for row in ended]}" if ended else ""),
            stacklevel=1,
        )


@pytest.fixture(scope="session")
def live_server(django_db_setup, live_server):
    """pytest-django's live server, started after this process's test database is set up and
    so stopped before it is dropped (the plugin's own fixture does not depend on the
    database: a process whose first test asked for the server set it up first and stopped
    it last)."""
    return live_server


@pytest.fixture(scope="module")
def demo_loaded(django_db_setup, django_db_blocker):
    """The demo (``load_demo``: five kinds, eight rounds, its accounts and teams) loaded once
    for a module and committed, instead of once per test (4 s of CPU each time). Each test
    still asks for ``db``: it runs in a transaction rolled back at its end, so what it writes
    (a session, an upload) never reaches the next test, which sees the demo as loaded. At the
    module's end the database is flushed, as after a ``transaction=True`` test, its sequences
    kept (``tests.support.flush_database``). Only for a module whose every test wants the
    demo loaded first (a test that must load it itself, on an empty or a foreign database,
    belongs in another module, and so does a ``transaction=True`` test, whose flush would
    take the demo from the tests after it); the files the demo writes stay in the process's
    MEDIA_ROOT, as when each test loaded its own. See docs/architecture.md, "Tests"."""
    from django.core.management import call_command

    from tests.support import flush_database

    with django_db_blocker.unblock():
        call_command("load_demo", stdout=io.StringIO())
    yield
    with django_db_blocker.unblock():
        flush_database()


@pytest.fixture(scope="module")
def scratch_db(django_db_setup, django_db_blocker):
    """For a module-scoped fixture that builds rows only to read something out of them (a
    round's exported bundle): ``with scratch_db():`` opens the database in a transaction that
    is rolled back at the block's end, so the module's tests share what was read and the
    database holds nothing of it."""

    @contextlib.contextmanager
    def scratch():
        from django.db import transaction

        with django_db_blocker.unblock(), transaction.atomic():
            yield
            transaction.set_rollback(True)

    return scratch


@pytest.fixture(scope="module", autouse=True)
def file_cache_emptied_after_module():
    """The test settings' file cache (pwscup/settings/test.py) is emptied after each module.
    Django's ``FileBasedCache.set`` lists the whole cache folder before every write (to
    decide whether to cull), and a process of the parallel suite otherwise keeps every
    entry of every module it ran: thousands of files by the end, a few milliseconds of CPU
    per write and several writes per request. What a module cached belongs to rows its
    tests rolled back or flushed, so no later module reads it; an empty cache is one a
    restarted Redis gives production too. Torn down after the module's own fixtures (an
    autouse fixture is set up first in its scope), so its servers are stopped by then."""
    yield
    from django.conf import settings
    from django.core.cache import cache

    if settings.CACHES["default"]["BACKEND"].endswith(".FileBasedCache"):
        cache.clear()


@pytest.fixture(autouse=True)
def default_language_after_each_test():
    """Each test starts in the site's default language. A request through the test client
    leaves the language LocaleMiddleware chose active in the test's thread (nothing
    deactivates it), so a test after one that asked for Japanese would read Japanese."""
    yield
    from django.utils import translation

    translation.deactivate()


@pytest.fixture(scope="session")
def celery_worker_session(django_db_setup, django_db_blocker):
    """``celery worker`` (prefork, concurrency 1) against the test database, started once per
    process and kept for the session. It listens to a queue of its own that nothing is sent
    to: it takes the run's jobs only while a test holds ``celery_worker_process``. A test
    that runs a job in its own process (as most do) then never races a worker for it."""
    from django.conf import settings

    hostname = f"test-worker-{os.getpid()}@{socket.gethostname()}"
    idle_queue = f"{settings.CELERY_TASK_DEFAULT_QUEUE}-idle"
    try:
        with running(
            worker_command(hostname, queue=idle_queue),
            env=child_env(),
            log_path=Path(settings.MEDIA_ROOT) / "worker.log",
            # Addressed to it: the ping returns with its answer, not after the whole 0.5 s.
            ready=lambda: _session_control().ping(destination=[hostname], timeout=0.5),
            what="the Celery worker to answer a ping",
        ) as process:
            _session_worker.append(hostname)
            yield process
    finally:
        _session_worker.clear()
        _clean_redis(settings.CELERY_BROKER_URL, settings.CELERY_TASK_DEFAULT_QUEUE)


@pytest.fixture
def celery_worker_process(celery_worker_session):
    """The session's Celery worker, taking the run's jobs for this test (Celery's remote
    control ``add_consumer``, then ``cancel_consumer`` at its end: a job a later test
    sends is that test's to run). Tests using it must commit their data: mark them
    ``django_db(transaction=True)``."""
    _worker_consumes(True)
    yield celery_worker_session
    _worker_consumes(False)


# The session worker's name, once a test of this process has started it.
_session_worker: list[str] = []


@functools.cache
def _session_control():
    """The remote control of the session worker, always on the session's broker. The
    current app will not do: while a module sends to a Redis of its own
    (``tests.pwscup.brokers.broker_at``), its control messages go to that Redis, where the
    session worker does not listen, so each ``inspect`` of a test's teardown there waited
    out its whole timeout for a reply that never came (two of 5 s per test)."""
    from celery import Celery

    # Not made current: the product keeps sending through the project's app.
    app = Celery("pwscup-tests-control", set_as_current=False)
    app.config_from_object("django.conf:settings", namespace="CELERY")
    return app.control


def _worker_consumes(consuming: bool) -> None:
    """The session worker takes the run's queue (or stops taking it), confirmed by asking
    it which queues it consumes: a busy machine may answer the control message late."""
    from django.conf import settings

    from tests.support import wait_for

    (hostname,) = _session_worker
    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    control = _session_control()
    change = control.add_consumer if consuming else control.cancel_consumer
    change(queue, destination=[hostname], reply=True, timeout=5.0)

    def done() -> bool:
        listening = (
            control.inspect(destination=[hostname], timeout=5.0).active_queues() or {}
        ).get(hostname)
        if listening is None:
            return False
        return (queue in {q["name"] for q in listening}) == consuming

    wait_for(
        done, timeout=60, what=f"the session worker to {'take' if consuming else 'leave'} the queue"
    )


def _worker_quiet() -> None:
    """Leave the session worker (if this process started one) with nothing to do: drop the
    jobs still queued and wait for the one it runs to end. A ``transaction=True`` test's
    teardown empties the tables with one TRUNCATE; a job the worker ran meanwhile (one the
    test enqueued and did not wait for) held row locks the TRUNCATE waited on while it
    waited on the TRUNCATE's, and PostgreSQL broke the deadlock by failing the flush."""
    if not _session_worker:
        return
    from tests.support import wait_for

    (hostname,) = _session_worker
    control = _session_control()
    control.purge()
    inspect = control.inspect(destination=[hostname], limit=1, timeout=5.0)

    def idle() -> bool:
        busy = [
            *(inspect.active() or {}).get(hostname, []),
            *(inspect.reserved() or {}).get(hostname, []),
        ]
        return not busy

    wait_for(idle, timeout=120, what="the session worker to end its job before the flush")


class _LiveRequests:
    """The live server's threads answering a request now (Django's public
    ``request_started`` / ``request_finished`` signals; the test client's requests, in the
    test's own thread, are not counted). A browser closed at a test's end may leave one of
    its polls in a server thread; that request's reads took their table locks in another
    order than the teardown's TRUNCATE, and PostgreSQL broke the deadlock by failing the
    flush (seen once in a shuffled run). A thread whose client hung up ends without
    ``request_finished``: a thread that is gone counts as done."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.threads: set[threading.Thread] = set()

    def started(self, **kwargs) -> None:
        thread = threading.current_thread()
        if thread is not threading.main_thread():
            with self.lock:
                self.threads.add(thread)

    def finished(self, **kwargs) -> None:
        with self.lock:
            self.threads.discard(threading.current_thread())

    def idle(self) -> bool:
        with self.lock:
            self.threads = {thread for thread in self.threads if thread.is_alive()}
            return not self.threads

    def wait(self, *, timeout: float) -> bool:
        """Whether the server went idle within ``timeout`` seconds. Not a failure when it
        did not (a test may leave a streamed download unread): the flush then goes on, as
        it did before this wait."""
        deadline = time.monotonic() + timeout
        while not self.idle():
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
        return True


_live_requests = _LiveRequests()


@pytest.fixture(scope="session", autouse=True)
def live_requests_counted():
    """Count the requests in flight for the whole session (see ``_LiveRequests``)."""
    from django.core.signals import request_finished, request_started

    request_started.connect(_live_requests.started, dispatch_uid="tests-live-requests-started")
    request_finished.connect(_live_requests.finished, dispatch_uid="tests-live-requests-done")
    yield _live_requests
    request_started.disconnect(dispatch_uid="tests-live-requests-started")
    request_finished.disconnect(dispatch_uid="tests-live-requests-done")


@pytest.fixture(autouse=True)
def session_worker_quiet_before_flush(request):
    """For a test whose database is emptied at its end (``transaction=True``, a live
    server): the session worker is quiet before it is (``_worker_quiet``). The transactional
    database is set up first, so this teardown runs before its flush."""
    marker = request.node.get_closest_marker("django_db")
    transactional = bool(marker and marker.kwargs.get("transaction")) or any(
        name in request.fixturenames for name in ("transactional_db", "live_server")
    )
    if transactional:
        request.getfixturevalue("transactional_db")
    yield
    if transactional:
        _worker_quiet()
        _live_requests.wait(timeout=10)


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


@pytest.fixture(scope="session")
def s3_server(tmp_path_factory):
    """A real S3-compatible server over HTTP (moto's standalone server) for the session."""
    from tests.s3 import S3Server

    server = S3Server(log_path=tmp_path_factory.mktemp("s3") / "moto.log").start()
    yield server
    server.stop()


@pytest.fixture
def s3_bucket(s3_server, settings):
    """A fresh private bucket, and this process's default storage switched to it: every
    file a test keeps goes to the bucket, none to MEDIA_ROOT."""
    bucket = s3_server.new_bucket()
    settings.STORAGES = {**settings.STORAGES, "default": s3_server.storage(bucket)}
    return bucket
