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
miss, see ``CACHES``), the broker and the workers are asked directly.
The database, the cache and the file storage are checked on every request (one ``SELECT 1``
on the kept connection, one round trip to the cache, one existence check in the storage: a
file system call, or a HEAD request to the bucket).
"""

import threading
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.core.files.storage import default_storage
from django.db import connection
from django_redis import get_redis_connection

from pwscup import celery_app

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


def system_health() -> Health:
    cache_state = cache_status()
    if cache_state == "ok":
        broker, workers = broker_and_workers()
    else:
        broker, workers = _probe()
    return Health(
        database=database_status(),
        cache=cache_state,
        storage=storage_status(),
        broker=broker,
        workers=workers,
        queue=celery_app.conf.task_default_queue,
    )


def database_status() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"error: {error.__class__.__name__}"


def storage_status() -> str:
    """The file storage answers (the local folder, or the bucket with its credentials)."""
    try:
        default_storage.exists(STORAGE_PROBE)
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"error: {error.__class__.__name__}"
    return "ok"


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
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=BROKER_TIMEOUT)
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
        # waits out its whole timeout, and no request should wait for it).
        threading.Thread(target=_refresh, name="healthz-refresh", daemon=True).start()
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
        return len(celery_app.control.ping(timeout=PING_TIMEOUT) or [])
    except Exception:  # noqa: BLE001 - a broker without broadcast: no worker we can see
        return 0
