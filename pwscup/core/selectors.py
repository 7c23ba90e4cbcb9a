"""Operator reads: the health of the database, the cache, the broker and the scoring workers.

A Celery ping is a broadcast every worker answers, so ``/healthz`` must not send one per
request: the worker count lives in the shared cache, and one process at a time (the one that
wins ``cache.add`` of a lock that lives ``PWSCUP_HEALTHZ_PING_INTERVAL`` seconds) refreshes it,
in a thread beside its request: every request answers with the last refresh at once, and waits
for the running ping only when there has been none yet. A change (a worker that stops) shows
within one interval plus the ping's timeout.

The broker is checked by the same refresh (opening a broker connection costs more than the
rest of the request): a broker that goes down is reported within one interval, like a worker
that stops. When the shared cache itself cannot be reached (it answers every call with a
miss, see ``CACHES``), the broker and the workers are asked directly. Both are asked through
Celery's ``current_app``, as ``pwscup.submissions.broker`` sends its jobs.
The database, the cache and the file storage are checked on every request (one ``SELECT 1``,
one round trip to the cache, one existence check in the storage: a file system call, or a HEAD
request to the bucket; and the local folder's free space, at least ``PWSCUP_MIN_FREE_BYTES``).

Every check runs in a thread of its own (``SingleFlight``), all at once, and a check that has
not answered within ``PWSCUP_HEALTHZ_TIMEOUT`` seconds is reported ``"error: timeout"``: a
database, a Redis or a bucket that accepts connections and never answers costs ``/healthz``
that many seconds, not the request. A check still running (a hung server) is not started
again: every request waits for that same run, so a hang holds one thread per check, whatever
the traffic. The checks never read the request's session: nothing the view does needs the
database but its own check.
"""

import logging
import queue
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from celery import current_app
from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db import close_old_connections, connection
from django_redis import get_redis_connection

logger = logging.getLogger(__name__)

WORKERS_KEY = "healthz:broker-workers"  # (broker status, worker count) of the last refresh
PING_LOCK_KEY = "healthz:ping-lock"
HEALTH_KEY = "healthz:cache-round-trip"
STORAGE_PROBE = "healthz/probe"  # a name never written: asking for it reaches the storage
PING_TIMEOUT = 1.0
BROKER_TIMEOUT = 2.0
# cache.add is atomic in Redis (SET NX) but check-then-set in the file cache of the demo and
# the tests: threads of one process take this lock around it so only one of them pings.
_PING_GUARD = threading.Lock()


@dataclass(frozen=True)
class Health:
    database: str
    cache: str
    storage: str
    broker: str
    workers: int
    queue: str

    @property
    def healthy(self) -> bool:
        """Uploads are kept and scored: database, file storage, broker and a worker. A cache
        that is down costs speed only (pages are computed anew), and is reported beside."""
        up = (self.database, self.storage, self.broker)
        return up == ("ok", "ok", "ok") and self.workers > 0

    def as_json(self) -> dict:
        return {
            "status": "ok" if self.healthy else "degraded",
            "database": self.database,
            "cache": self.cache,
            "storage": self.storage,
            "broker": self.broker,
            "workers": self.workers,
            "queue": self.queue,
        }


TIMED_OUT = "error: timeout"


class _Run:
    """One run of a check: its result once ``finished`` is set."""

    def __init__(self):
        self.finished = threading.Event()
        self.result = None


class SingleFlight:
    """``function`` run in a thread of its own, never twice at once: while a run is under way,
    every caller gets that same run. A check that hangs (a server that accepts connections and
    never answers) holds this one thread, however many requests ask meanwhile.

    Written here, not taken from ``concurrent.futures``: its executors join their threads when
    the interpreter exits, so a check hung on a frozen server would stop the process (gunicorn's
    worker, the test run) from ending; this thread is a daemon. It is started on first use,
    after gunicorn's fork."""

    def __init__(self, function: Callable[[], object], name: str):
        self.function = function
        self.name = name
        self._guard = threading.Lock()
        self._runs: queue.SimpleQueue[_Run] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._run: _Run | None = None

    def start(self) -> _Run:
        with self._guard:
            if self._run is None or self._run.finished.is_set():
                self._run = _Run()
                if self._thread is None or not self._thread.is_alive():
                    self._thread = threading.Thread(target=self._serve, name=self.name, daemon=True)
                    self._thread.start()
                self._runs.put(self._run)
            return self._run

    def _serve(self):
        while True:
            run = self._runs.get()
            try:
                run.result = self.function()
            except Exception:  # a check reports its own errors; this one is a bug: say so
                logger.exception("The /healthz check %s failed", self.name)
            finally:
                run.finished.set()


def _broker_and_workers_check() -> tuple[str, int]:
    # Through the shared cache when it answers; a Redis cache that is down answers every call
    # with a miss (IGNORE_EXCEPTIONS), so then the broker and the workers are asked directly.
    if cache_status() == "ok":
        return broker_and_workers()
    return _probe()


def _database_check() -> str:
    # This thread's own connection, handled as Django handles a request's: closed when broken
    # or past DJANGO_CONN_MAX_AGE, before and after the query.
    close_old_connections()
    try:
        return database_status()
    finally:
        close_old_connections()


_CHECKS = {
    "database": SingleFlight(_database_check, "healthz-database"),
    "cache": SingleFlight(lambda: cache_status(), "healthz-cache"),
    "storage": SingleFlight(lambda: storage_status(), "healthz-storage"),
    "broker": SingleFlight(lambda: _broker_and_workers_check(), "healthz-broker"),
}


def system_health() -> Health:
    """Every check at once, each given until ``PWSCUP_HEALTHZ_TIMEOUT`` seconds from now; one
    that has not answered by then is ``"error: timeout"`` (its run goes on, and the next request
    waits for it)."""
    runs = {name: check.start() for name, check in _CHECKS.items()}
    deadline = time.monotonic() + settings.PWSCUP_HEALTHZ_TIMEOUT
    results = {}
    for name, run in runs.items():
        answered = run.finished.wait(max(0.0, deadline - time.monotonic()))
        results[name] = run.result if answered and run.result is not None else None
    broker, workers = results["broker"] or (TIMED_OUT, 0)
    return Health(
        database=results["database"] or TIMED_OUT,
        cache=results["cache"] or TIMED_OUT,
        storage=results["storage"] or TIMED_OUT,
        broker=broker,
        workers=workers,
        queue=current_app.conf.task_default_queue,
    )


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"error: {error.__class__.__name__}"


def storage_status() -> str:
    """The file storage answers (the local folder, or the bucket with its credentials), and a
    local folder has ``PWSCUP_MIN_FREE_BYTES`` free."""
    try:
        default_storage.exists(STORAGE_PROBE)
        free = media_free_bytes()
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"error: {error.__class__.__name__}"
    minimum = settings.PWSCUP_MIN_FREE_BYTES
    if free is not None and free < minimum:
        return f"error: {free} bytes free, fewer than PWSCUP_MIN_FREE_BYTES ({minimum})"
    return "ok"


def media_free_bytes() -> int | None:
    """Free bytes on the local folder of the file storage; ``None`` for a bucket."""
    try:
        folder = Path(default_storage.path(""))
    except NotImplementedError:  # a storage without local paths: the bucket
        return None
    while not folder.exists() and folder != folder.parent:
        folder = folder.parent  # not made yet (no file kept): the disk it will be made on
    return shutil.disk_usage(folder).free


def cache_status() -> str:
    """A round trip to the cache. Through the Redis client itself where there is one: the
    Django cache API answers an unreachable Redis with a miss (``IGNORE_EXCEPTIONS``)."""
    try:
        if settings.CACHES["default"]["BACKEND"].startswith("django_redis."):
            get_redis_connection("default").ping()
        else:
            cache.set(HEALTH_KEY, 1, timeout=60)
            if cache.get(HEALTH_KEY) != 1:
                return "error: not stored"
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"error: {error.__class__.__name__}"
    return "ok"


def broker_status() -> str:
    try:
        with current_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, interval_start=0, timeout=BROKER_TIMEOUT)
    except Exception as error:  # noqa: BLE001
        return f"error: {error.__class__.__name__}"
    return "ok"


def broker_and_workers() -> tuple[str, int]:
    """The broker's status and the workers answering a ping, refreshed at most once per
    interval across all processes (no broker: no worker can be reached, none is pinged)."""
    try:
        return _shared_broker_and_workers()
    except Exception:  # noqa: BLE001 - the cache failed meanwhile: ask directly
        return _probe()


def worker_count() -> int:
    """Workers answering a ping, refreshed at most once per interval across all processes."""
    return broker_and_workers()[1]


def _shared_broker_and_workers() -> tuple[str, int]:
    interval = settings.PWSCUP_HEALTHZ_PING_INTERVAL
    with _PING_GUARD:  # held for the lock's add only, never for the ping
        refresh = cache.add(PING_LOCK_KEY, 1, timeout=interval)
    state = cache.get(WORKERS_KEY)
    if refresh:
        if state is None:
            return _refresh()  # the first of all: nothing to answer with meanwhile
        # Answer with the last refresh; the new one runs beside the request (a Celery ping
        # waits out its whole timeout, and no request should wait for it), one at a time.
        _REFRESH.start()
        return tuple(state)
    deadline = time.monotonic() + BROKER_TIMEOUT + PING_TIMEOUT + 1.0
    while state is None and time.monotonic() < deadline:
        time.sleep(0.05)  # the first refresh of all is under way in another request
        state = cache.get(WORKERS_KEY)
    if state is None:
        return broker_status(), 0
    return tuple(state)


def _probe() -> tuple[str, int]:
    """The broker's status and the workers answering, asked now (no shared cache)."""
    broker = broker_status()
    return broker, _ping_workers() if broker == "ok" else 0


def _refresh() -> tuple[str, int]:
    state = _probe()
    # Kept well past the interval: a reader between two refreshes uses the last one.
    interval = settings.PWSCUP_HEALTHZ_PING_INTERVAL
    cache.set(WORKERS_KEY, state, timeout=max(60.0, 10 * interval))
    return state


def _ping_workers() -> int:
    try:
        return len(current_app.control.ping(timeout=PING_TIMEOUT) or [])
    except Exception:  # noqa: BLE001 - a broker without broadcast: no worker we can see
        return 0


_REFRESH = SingleFlight(_refresh, "healthz-refresh")
