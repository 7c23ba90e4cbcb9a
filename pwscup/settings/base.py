"""Settings shared by every environment; everything is read from the environment.

With no ``DATABASE_URL`` the platform runs on SQLite, and with no ``REDIS_URL`` on an
embedded filesystem broker, so a laptop needs no server at all.
"""

import datetime as dt
import ipaddress
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parents[2]

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

VAR_DIR = Path(env("PWSCUP_VAR_DIR", default=str(BASE_DIR / "var")))

INSECURE_DEVELOPMENT_KEY = "insecure-local-development-key-change-me"  # refused in production
SECRET_KEY = env("DJANGO_SECRET_KEY", default=INSECURE_DEVELOPMENT_KEY)
DEBUG = env.bool("DJANGO_DEBUG", default=False)
ALLOWED_HOSTS = env.list("DJANGO_ALLOWED_HOSTS", default=["127.0.0.1", "localhost"])
CSRF_TRUSTED_ORIGINS = env.list("DJANGO_CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "axes",
    "pwscup.core",
    "pwscup.competitions",
    "pwscup.accounts",
    "pwscup.submissions",
    "pwscup.pwscup2015.leaderboards",
    "pwscup.notifications",
    "pwscup.console",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "pwscup.api",
    # The round kinds, one line each: each app registers its kind in ready(), in this order.
    "pwscup.pwscup2015",
    "pwscup.sequential",
    "pwscup.dp",
    "pwscup.synthetic",
    "pwscup.presentations",
    "pwscup.bundles",
    "pwscup.archives",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Cache-Control: private, no-store on every answer to a logged-in user (session or token).
    "pwscup.core.middleware.PrivateCacheControlMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "pwscup.urls"
WSGI_APPLICATION = "pwscup.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "pwscup.accounts.context_processors.header",
            ],
            "builtins": ["pwscup.core.templatetags.pwscup_tags"],
        },
    },
]

DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'db.sqlite3'}"),
}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    # The web server and the worker share the file: a writer waits for the lock (up to 30 s,
    # far longer than any one write of theirs holds it) instead of failing. That wait only
    # works if every transaction takes the write lock when it begins (IMMEDIATE): a deferred
    # one that has read cannot upgrade its lock while another process writes, and SQLite
    # fails it at once ("database is locked") rather than wait. WAL lets pages read while a
    # write is under way (a setting of the file, kept once set).
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        timeout=30, transaction_mode="IMMEDIATE", init_command="PRAGMA journal_mode=WAL"
    )
elif DATABASES["default"]["ENGINE"].endswith("postgresql"):
    # An unreachable server fails a request in seconds (the outage page, 503), not after the
    # system's TCP timeout of minutes with every web thread waiting.
    DATABASES["default"].setdefault("OPTIONS", {})["connect_timeout"] = env.int(
        "PWSCUP_DB_CONNECT_TIMEOUT", default=3
    )
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

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

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 10},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
AUTHENTICATION_BACKENDS = [
    # First: refuses a locked-out user name + address before the password is even checked.
    "pwscup.accounts.backends.LoginThrottleBackend",
    "django.contrib.auth.backends.ModelBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# --- E-mail (password reset, notifications) -----------------------------------------
# EMAIL_URL, e.g. smtp+tls://user:password@smtp.example.org:587; by default e-mails are
# written to the web / worker console, so the demo needs no mail server.
vars().update(env.email_url("EMAIL_URL", default="consolemail://"))
DEFAULT_FROM_EMAIL = env("DEFAULT_FROM_EMAIL", default="PWSCup <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Links in e-mails sent by the worker (no request to take the address from).
PWSCUP_SITE_URL = env("PWSCUP_SITE_URL", default="http://127.0.0.1:8000")

LANGUAGE_CODE = env("DJANGO_LANGUAGE_CODE", default="ja")
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env("DJANGO_TIME_ZONE", default="Asia/Tokyo")
# The time zone a new round (of every kind) or presentation window starts with, and the
# creation forms' initial choice (pwscup/core/time_zones.py): the server's unless set.
PWSCUP_DEFAULT_TIME_ZONE = env("PWSCUP_DEFAULT_TIME_ZONE", default=TIME_ZONE)
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(env("DJANGO_STATIC_ROOT", default=str(VAR_DIR / "staticfiles")))
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# A bucket that stalls must not take the site down. Each call to it waits at most this long to
# connect and for each read (seconds), and is retried this many times after the first try: a
# bucket that never answers fails a call after about (retries + 1) x read timeout.
PWSCUP_STORAGE_CONNECT_TIMEOUT = env.float("PWSCUP_STORAGE_CONNECT_TIMEOUT", default=2.0)
PWSCUP_STORAGE_READ_TIMEOUT = env.float("PWSCUP_STORAGE_READ_TIMEOUT", default=10.0)
PWSCUP_STORAGE_RETRIES = env.int("PWSCUP_STORAGE_RETRIES", default=2)
# At most this many requests of one web process write an upload to the storage at once; one
# more waits up to PWSCUP_STORAGE_SLOT_WAIT seconds for a slot while its holders are younger
# than that (a healthy storage frees one in milliseconds), and is refused (503, Retry-After)
# then, or at once when every holder has been writing longer (a stalled storage).
# Keep it below GUNICORN_THREADS, so pages that do not touch the storage always find a thread.
PWSCUP_STORAGE_WRITE_SLOTS = env.int("PWSCUP_STORAGE_WRITE_SLOTS", default=2)
PWSCUP_STORAGE_SLOT_WAIT = env.float("PWSCUP_STORAGE_SLOT_WAIT", default=1.0)
# /healthz reports the local storage degraded (503) with less free space than this (bytes).
PWSCUP_MIN_FREE_BYTES = env.int("PWSCUP_MIN_FREE_BYTES", default=512 * 1024**2)


def s3_storage(
    *,
    bucket: str,
    endpoint_url: str | None = None,
    region_name: str | None = None,
    access_key: str | None = None,
    secret_key: str | None = None,
    location: str = "",
    connect_timeout: float | None = None,
    read_timeout: float | None = None,
    retries: int | None = None,
) -> dict:
    """Every kept file (uploads, originals, samples, targets, kits) as a private object in
    ``bucket`` of an S3-compatible server (AWS, MinIO), read and written by django-storages.
    Objects get no ACL of their own (the bucket's private default) and are never
    overwritten: a name is taken once. Every download streams through a view that checks
    who is asking; no object URL is handed out (one would be signed, valid for a minute).
    Every call waits at most ``connect_timeout`` to connect and ``read_timeout`` for each
    read, and is retried ``retries`` times (defaults: the ``PWSCUP_STORAGE_*`` settings).
    """
    from botocore.config import Config

    return {
        "BACKEND": "storages.backends.s3.S3Storage",
        "OPTIONS": {
            "bucket_name": bucket,
            "endpoint_url": endpoint_url,
            "region_name": region_name,
            "access_key": access_key,
            "secret_key": secret_key,
            "location": location,
            "default_acl": None,
            "file_overwrite": False,
            "querystring_auth": True,
            "querystring_expire": 60,
            # A read holds at most this much in memory; a larger object spills to a
            # temporary file (django-storages' default, 0, keeps every object in memory).
            "max_memory_size": 5 * 1024 * 1024,
            # A server that is unreachable or stalls (accepts, never answers) fails a call in
            # seconds (an upload is refused 503, a job retried, /healthz reports it), not after
            # botocore's default minute per read and attempt. ``max_attempts`` counts the
            # retries after the first attempt.
            "client_config": Config(
                connect_timeout=(
                    PWSCUP_STORAGE_CONNECT_TIMEOUT if connect_timeout is None else connect_timeout
                ),
                read_timeout=PWSCUP_STORAGE_READ_TIMEOUT if read_timeout is None else read_timeout,
                retries={
                    "max_attempts": PWSCUP_STORAGE_RETRIES if retries is None else retries,
                    "mode": "standard",
                },
            ),
        },
    }


# With AWS_STORAGE_BUCKET_NAME set, every host (web, workers) reads and writes the bucket, so
# workers on other machines need no shared folder; unset, files stay under MEDIA_ROOT and the
# embedded demo needs no server. The standard variables of django-storages and boto3.
if env("AWS_STORAGE_BUCKET_NAME", default=""):
    STORAGES["default"] = s3_storage(
        bucket=env("AWS_STORAGE_BUCKET_NAME"),
        endpoint_url=env("AWS_S3_ENDPOINT_URL", default=None),
        region_name=env("AWS_S3_REGION_NAME", default=None),
        access_key=env("AWS_ACCESS_KEY_ID", default=None),
        secret_key=env("AWS_SECRET_ACCESS_KEY", default=None),
        location=env("AWS_LOCATION", default=""),
    )

# Uploaded and generated files are private: there is deliberately no MEDIA_URL route;
# every file is served by a view that checks who is asking.
MEDIA_ROOT = Path(env("PWSCUP_MEDIA_ROOT", default=str(VAR_DIR / "media")))
# Originals, samples, truths and uploads are readable by the platform's account (and its
# group, e.g. a backup job) only, never by every local user as Django's default 0644 would.
FILE_UPLOAD_PERMISSIONS = 0o640
FILE_UPLOAD_DIRECTORY_PERMISSIONS = 0o750
# The participants' toolkit wheel (pwscup/core/toolkit.py) is built here on first use;
# a deployment builds it ahead (scripts/build_toolkit, the Docker image).
PWSCUP_TOOLKIT_DIR = Path(env("PWSCUP_TOOLKIT_DIR", default=str(VAR_DIR / "toolkit")))
# The worker host's own cache of prepared originals (pwscup/pwscup2015/prepared.py): on each
# host's local disk, never shared; bounded, least recently used first.
PWSCUP_PREPARED_CACHE_DIR = Path(
    env("PWSCUP_PREPARED_CACHE_DIR", default=str(VAR_DIR / "prepared"))
)
PWSCUP_PREPARED_CACHE_BYTES = env.int("PWSCUP_PREPARED_CACHE_BYTES", default=4 * 1024**3)
PWSCUP_MAX_UPLOAD_BYTES = env.int("PWSCUP_MAX_UPLOAD_BYTES", default=50 * 1024 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
# Form fields per request (Django's default: 1,000). The round wizard's roles form sends up to
# three check boxes per column of the table (a QI: qi, match_qi, cross; an SA: sa, euc_sa,
# number_domain): Django's default refused a table of 330 columns with a bare 400. The fields
# stay bounded by DATA_UPLOAD_MAX_MEMORY_SIZE; beyond this count the 400 page says so.
DATA_UPLOAD_MAX_NUMBER_FIELDS = 10_000
# Failed uploads cost no quota but are kept: bounded per team per (round-local) day, and the
# bytes a team may have stored over all its uploads.
PWSCUP_MAX_FAILED_UPLOADS_PER_DAY = env.int("PWSCUP_MAX_FAILED_UPLOADS_PER_DAY", default=50)
PWSCUP_MAX_STORED_BYTES_PER_TEAM = env.int(
    "PWSCUP_MAX_STORED_BYTES_PER_TEAM", default=2 * 1024 * 1024 * 1024
)
# A team's slides (pwscup/presentations/): a PDF of at most this size, whatever a window allows.
PWSCUP_SLIDES_MAX_BYTES = env.int("PWSCUP_SLIDES_MAX_BYTES", default=20 * 1024 * 1024)
# The preview's renderer (pwscup/presentations/preview.py): its temporary folders (never the
# system's temp folder) and the address space each poppler tool may use.
PWSCUP_SLIDES_WORK_DIR = Path(env("PWSCUP_SLIDES_WORK_DIR", default=str(VAR_DIR / "slides-work")))
PWSCUP_SLIDES_RENDER_MEMORY_BYTES = env.int("PWSCUP_SLIDES_RENDER_MEMORY_BYTES", default=1024**3)
# A competition bundle (pwscup/bundles/): the ZIP as uploaded (under nginx's 64m request
# cap, scripts/docker/nginx.conf, with room for the form), then what it decompresses to, and
# how many members it may hold; a bundle past any of them is refused unread.
PWSCUP_BUNDLE_MAX_UPLOAD_BYTES = env.int("PWSCUP_BUNDLE_MAX_UPLOAD_BYTES", default=60 * 1024**2)
PWSCUP_BUNDLE_MAX_BYTES = env.int("PWSCUP_BUNDLE_MAX_BYTES", default=1024**3)
PWSCUP_BUNDLE_MAX_FILES = env.int("PWSCUP_BUNDLE_MAX_FILES", default=500)

# --- Login throttling (django-axes) -------------------------------------------------
# A user name is locked for a while from one address after this many failed log-ins in a row;
# an address (a class behind one NAT shares one) after this many failures over all user names.
PWSCUP_LOGIN_FAILURE_LIMIT = env.int("PWSCUP_LOGIN_FAILURE_LIMIT", default=5)
PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS = env.int(
    "PWSCUP_LOGIN_FAILURE_LIMIT_PER_ADDRESS", default=50
)
AXES_FAILURE_LIMIT = "pwscup.accounts.backends.login_failure_limit"
AXES_COOLOFF_TIME = dt.timedelta(minutes=env.int("PWSCUP_LOGIN_COOLOFF_MINUTES", default=15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_HANDLER = "pwscup.accounts.backends.LoginThrottleHandler"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "pwscup.accounts.views.login_locked_out"
AXES_CLIENT_IP_CALLABLE = "pwscup.accounts.addresses.client_ip"
AXES_VERBOSE = False  # no start-up banner; failures and lock-outs are still logged (WARNING)
# Sign-ups and password-reset e-mails per client address (django-ratelimit, on the cache;
# "N/s", "N/m", "N/h" or "N/d"). A class signing up together behind one NAT shares an address.
PWSCUP_SIGNUP_RATE = env("PWSCUP_SIGNUP_RATE", default="50/h")
PWSCUP_PASSWORD_RESET_RATE = env("PWSCUP_PASSWORD_RESET_RATE", default="20/h")
# An unreachable cache lets requests through, as the other throttles do.
RATELIMIT_FAIL_OPEN = True
# Behind the reverse proxy the client's address is in this header (set by the proxy only).
PWSCUP_CLIENT_IP_HEADER = env("PWSCUP_CLIENT_IP_HEADER", default="")
# ...believed only when the request comes from one of these addresses or networks (the proxy;
# comma-separated, CIDR allowed); from any other peer the peer's own address counts.
# A malformed entry stops the start with ipaddress's message naming it.
PWSCUP_TRUSTED_PROXIES = [
    str(ipaddress.ip_network(entry, strict=False))
    for entry in env.list("PWSCUP_TRUSTED_PROXIES", default=["127.0.0.0/8", "::1"])
]

# --- Content-Security-Policy (django-csp) ------------------------------------------
# Everything comes from this site: no inline script or style, no CDN.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# --- Celery -----------------------------------------------------------------------
CELERY_BROKER_URL = env("CELERY_BROKER_URL", default=REDIS_URL)
if CELERY_BROKER_URL:
    # An unreachable Redis fails an upload's send within seconds (the upload is kept).
    CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600, "socket_connect_timeout": 5}
else:
    BROKER_DIR = VAR_DIR / "broker"
    # The embedded broker keeps its messages in these folders; every process may be first.
    for _folder in ("queue", "control"):
        (BROKER_DIR / _folder).mkdir(parents=True, exist_ok=True)
    CELERY_BROKER_URL = "filesystem://"
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "data_folder_in": str(BROKER_DIR / "queue"),
        "data_folder_out": str(BROKER_DIR / "queue"),
        "control_folder": str(BROKER_DIR / "control"),
        "store_processed": False,
    }
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", default="pwscup")
CELERY_TASK_IGNORE_RESULT = True
CELERY_RESULT_BACKEND = None
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_TASK_ALWAYS_EAGER = env.bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Scoring limits (seconds); the reaper treats a job older than the hard limit as lost.
PWSCUP_SCORING_SOFT_TIME_LIMIT = env.int("PWSCUP_SCORING_SOFT_TIME_LIMIT", default=600)
PWSCUP_SCORING_HARD_TIME_LIMIT = env.int("PWSCUP_SCORING_HARD_TIME_LIMIT", default=660)
PWSCUP_SCORING_MAX_ATTEMPTS = env.int("PWSCUP_SCORING_MAX_ATTEMPTS", default=3)
# The memory a worker process may take for jobs (MiB of address space above what it held once
# warmed; 0: no bound): an allocation beyond it fails the job with a message, it never takes
# down the host (pwscup/submissions/limits.py). A process whose resident memory passed half
# of it after a job is replaced by a fresh one, so what its caches hold never eats the bound.
PWSCUP_SCORING_MEMORY_MB = env.int("PWSCUP_SCORING_MEMORY_MB", default=3072)
CELERY_WORKER_MAX_MEMORY_PER_CHILD = PWSCUP_SCORING_MEMORY_MB * 1024 // 2 or None  # KiB
# The reaper resends jobs lost by a broker restart or a dead worker: every 30 s by
# default, so they are sent again well within 2 minutes. A tick that waited longer than
# one interval for a free worker is dropped (the next one does the same work).
PWSCUP_REAPER_INTERVAL = env.int("PWSCUP_REAPER_INTERVAL", default=30)
# A QUEUED job whose message was sent this many seconds ago is sent again: an upload made
# while the broker was down is scored within this + one reaper interval of its return.
PWSCUP_QUEUED_RESEND_SECONDS = env.int("PWSCUP_QUEUED_RESEND_SECONDS", default=60)
CELERY_BEAT_SCHEDULE = {
    "reap-stuck-jobs": {
        "task": "pwscup.submissions.tasks.reap_stuck_jobs",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
    "auto-freeze-rounds": {
        "task": "pwscup.pwscup2015.tasks.auto_freeze_rounds",
        "schedule": PWSCUP_REAPER_INTERVAL,
    },
    # Sequential rounds: each release step frozen at its close (pwscup/sequential/tasks.py).
    "auto-freeze-sequential-steps": {
        "task": "pwscup.sequential.tasks.auto_freeze_steps",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
    # DP rounds: scores and baselines once the release phase has closed (pwscup/dp/tasks.py).
    "score-closed-dp-rounds": {
        "task": "pwscup.dp.tasks.score_closed_dp_rounds",
        "schedule": PWSCUP_REAPER_INTERVAL,
        "options": {"expires": PWSCUP_REAPER_INTERVAL},
    },
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
    # django-axes logs every successful log-in at INFO: keep its failures and lock-outs only.
    "loggers": {"axes": {"level": "WARNING"}},
}


# --- REST API (pwscup/api/) and its documentation ----------------------------------
# Requests per token, per user (session or all the user's tokens) and per anonymous
# address; "N/sec|min|hour|day". Counted in the default cache; answered 429 + Retry-After.
PWSCUP_API_THROTTLE_RATES = {
    "anon": env("PWSCUP_API_ANON_RATE", default="60/min"),
    "user": env("PWSCUP_API_USER_RATE", default="120/min"),
    "token": env("PWSCUP_API_TOKEN_RATE", default="120/min"),
}
REST_FRAMEWORK = {
    # The token first: its 401 answers carry ``WWW-Authenticate: Bearer``.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "pwscup.api.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",  # with CSRF, as the pages
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_THROTTLE_CLASSES": [
        "pwscup.api.throttling.AnonymousThrottle",
        "pwscup.api.throttling.UserThrottle",
        "pwscup.api.throttling.TokenThrottle",
    ],
    # JSON only: DRF's browsable pages use inline scripts (the CSP forbids them); /api/docs/
    # is the browsable documentation.
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    # JSON bodies through the bounded reader (depth, size, number literals): never a 500.
    "DEFAULT_PARSER_CLASSES": [
        "pwscup.core.json_input.BoundedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "EXCEPTION_HANDLER": "pwscup.core.rest.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "PWSCup platform API",
    "DESCRIPTION": (
        "Competitions, rounds, uploads, targets and results of the PWSCup platform. "
        "Authenticate with a personal API token (profile page) as "
        "`Authorization: Bearer pws_...`, or with the browser session (and its CSRF token). "
        "Errors are `{code, message}`; messages follow Accept-Language (ja, en)."
    ),
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    "SCHEMA_PATH_PREFIX": "/api/v1",
    "COMPONENT_SPLIT_REQUEST": True,
    # Swagger UI from the drf-spectacular-sidecar package's static files: nothing from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}
