"""Test settings: PostgreSQL and Redis on loopback, in their own database / key space."""

import os
import sys
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import env
from .caches import redis_cache

DATABASES = {
    "default": env.db("TEST_DATABASE_URL", default="postgres://postgres@127.0.0.1:5432/pwscup"),
}
DATABASES["default"]["TEST"] = {"NAME": env("TEST_DATABASE_NAME", default="test_pwscup")}
# Each process's connections say which process they are (PostgreSQL's pg_stat_activity): the
# suite names one still connected when it drops its test database (tests/conftest.py).
if DATABASES["default"]["ENGINE"].endswith("postgresql"):
    DATABASES["default"].setdefault("OPTIONS", {})["application_name"] = (
        f"{Path(sys.argv[0]).name or 'python'}-{os.getpid()}"[:63]
    )
    # Django's backend, with a test's tables emptied by DELETE rather than TRUNCATE (a tenth
    # of the time: pwscup/settings/test_postgresql/base.py).
    DATABASES["default"]["ENGINE"] = "pwscup.settings.test_postgresql"
# Redis database 15, queue named per test run: nothing is shared with a running platform.
# Under pytest-xdist each worker process (PYTEST_XDIST_WORKER: gw0, gw1, ...) takes the
# database that many below TEST_REDIS_URL's (gw0: 15, gw1: 14, ...): a Celery ping or
# broadcast is answered only by that process's own Celery worker, and one process's clean-up
# never deletes another's unacked messages. A child the tests start (Celery worker, gunicorn)
# is given the final URL without PYTEST_XDIST_WORKER (tests.support.child_env).
_REDIS_URL = urlsplit(env("TEST_REDIS_URL", default="redis://127.0.0.1:6379/15"))
_XDIST_WORKER = env("PYTEST_XDIST_WORKER", default="")
if _XDIST_WORKER:
    _REDIS_DB = int(_REDIS_URL.path.strip("/") or 0) - int(_XDIST_WORKER.removeprefix("gw"))
    if _REDIS_DB < 0:
        raise ImproperlyConfigured(
            f"{_XDIST_WORKER}: TEST_REDIS_URL's database number leaves it no Redis database"
        )
    _REDIS_URL = _REDIS_URL._replace(path=f"/{_REDIS_DB}")
CELERY_BROKER_URL = urlunsplit(_REDIS_URL)
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", default=f"pwscup-test-{os.getpid()}")
MEDIA_ROOT = Path(env("PWSCUP_MEDIA_ROOT", default=tempfile.mkdtemp(prefix="pwscup-media-")))
# The host's prepared originals: this run's, shared by its test process and its worker (one
# host); a multi-host test gives each host its own.
PWSCUP_PREPARED_CACHE_DIR = Path(
    env(
        "PWSCUP_PREPARED_CACHE_DIR",
        default=str(MEDIA_ROOT.with_name(MEDIA_ROOT.name + "-prepared")),
    )
)
# The slides renderer's temporary folders: this run's, beside its media (never /tmp itself).
PWSCUP_SLIDES_WORK_DIR = Path(
    env(
        "PWSCUP_SLIDES_WORK_DIR",
        default=str(MEDIA_ROOT.with_name(MEDIA_ROOT.name + "-slides-work")),
    )
)
# The organizer's programs, their environments and runs (pwscup/scorer/): this run's, beside
# its media, shared by its test process and its worker (one host).
PWSCUP_SCORER_DIR = Path(
    env("PWSCUP_SCORER_DIR", default=str(MEDIA_ROOT.with_name(MEDIA_ROOT.name + "-scorer")))
)
# Each /healthz check is given 5 s here (production: 1.5 s): a healthy check on a machine busy
# with the parallel suite must not be reported timed out; the tests of a hung service still see
# its "error: timeout" within their clients' deadlines.
PWSCUP_HEALTHZ_TIMEOUT = env.float("PWSCUP_HEALTHZ_TIMEOUT", default=5.0)
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": STORAGES["default"],  # noqa: F405 - the bucket when AWS_STORAGE_BUCKET_NAME is set
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
LANGUAGE_CODE = "en"
# Per test run, shared with the run's Celery worker (it gets the same PWSCUP_MEDIA_ROOT): a
# score the worker writes invalidates the cached rankings the test's live server reads.
# Nothing cached leaks between parallel test runs.
# The file cache culls a random third of its entries whenever it holds MAX_ENTRIES (300 by
# default): a whole run writes more than that (sessions, ranking versions, fragments), so a
# test could lose a ranking or session it had just cached and read more queries than when run
# alone. A run never reaches this bound (Redis in production does not cull either). The suite
# empties the cache after each test module (tests/conftest.py): each write lists the folder.
CACHES = {
    "default": {
        "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
        "LOCATION": str(MEDIA_ROOT / ".cache"),
        "OPTIONS": {"MAX_ENTRIES": 1_000_000},
    }
}
# The Redis outage test runs its web server and worker on a Redis of its own for the cache too.
if env("TEST_CACHE_URL", default=""):
    CACHES = {"default": redis_cache(env("TEST_CACHE_URL"))}
STATIC_ROOT = Path(tempfile.mkdtemp(prefix="pwscup-static-"))
# The suite makes many requests from one address within a minute; the throttling tests set
# their own low rates.
PWSCUP_API_THROTTLE_RATES = dict.fromkeys(("anon", "user", "token"), "100000/min")
# The suite signs many users up from 127.0.0.1; the sign-up throttle's test sets a low rate.
PWSCUP_SIGNUP_RATE = "100000/h"
PWSCUP_PASSWORD_RESET_RATE = "100000/h"
