"""The cache on Redis (or files), the sessions, and /healthz's timings."""

from .environment import VAR_DIR, env

# --- Redis: two roles, two settings -----------------------------------------------
# The cache (rankings, throttles, the /healthz worker count) and the Celery broker are
# separate roles: CACHE_URL and CELERY_BROKER_URL, both defaulting to REDIS_URL. In
# production they are separate Redis servers (docker-compose.yml): the cache bounded
# (maxmemory + allkeys-lru), the broker never evicting (noeviction).
REDIS_URL = env("REDIS_URL", default="")
CACHE_URL = env("CACHE_URL", default=REDIS_URL)


def redis_cache(url: str) -> dict:
    """The cache on Redis at ``url``: an unreachable Redis is a miss, never an error (every
    page still answers, slower; throttles let requests through); django-redis logs each one."""
    return {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": url,
        "KEY_PREFIX": "pwscup-cache",
        "OPTIONS": {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 1, "SOCKET_TIMEOUT": 1},
    }


if CACHE_URL:
    CACHES = {"default": redis_cache(CACHE_URL)}
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": str(VAR_DIR / "cache"),
        }
    }
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True
DJANGO_REDIS_LOGGER = "pwscup.cache"
# Sessions live in the database and are read from it on every request: deleting a session
# row (or ``clearsessions``) logs its user out at once, and a Redis outage never touches them.
SESSION_ENGINE = "django.contrib.sessions.backends.db"
# /healthz pings the Celery workers at most once per this many seconds, whatever the traffic.
PWSCUP_HEALTHZ_PING_INTERVAL = env.float("PWSCUP_HEALTHZ_PING_INTERVAL", default=5.0)
# Each /healthz check (database, cache, storage, broker) that has not answered within this many
# seconds is reported "error: timeout": the endpoint answers in about this time whatever hangs.
PWSCUP_HEALTHZ_TIMEOUT = env.float("PWSCUP_HEALTHZ_TIMEOUT", default=1.5)
