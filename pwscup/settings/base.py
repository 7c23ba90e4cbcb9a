"""Settings shared by every environment; everything is read from the environment.

With no ``DATABASE_URL`` the platform runs on SQLite, and with no ``REDIS_URL`` on an
embedded filesystem broker, so a laptop needs no server at all.

This module holds Django's own settings (apps, middleware, templates, the database, log-in,
e-mail, logging) and gathers the others, one module per concern: ``i18n`` (languages, time
zones), ``caches`` (Redis, sessions, /healthz), ``files`` (storage, upload bounds),
``security`` (log-in throttling, addresses, CSP), ``worker`` (Celery) and ``rest_api``. They all
read the environment through ``environment.env``. ``local``, ``test`` and ``production`` only
override.
"""

from .caches import *  # noqa: F403
from .environment import BASE_DIR, VAR_DIR, env
from .files import *  # noqa: F403
from .i18n import *  # noqa: F403
from .rest_api import *  # noqa: F403
from .security import *  # noqa: F403
from .worker import *  # noqa: F403

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
    "pwscup.scorer",
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
    # A page for a browser's GET of a POST-only address (Django's 405 has no body).
    "pwscup.core.middleware.MethodNotAllowedPageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    # A kept page's 304 from one read (pwscup/accounts/conditional.py, kept_answer): after
    # every middleware above, so that each treats it as the page's own answer (axes acts on
    # log-ins only).
    "pwscup.accounts.middleware.KeptPageMiddleware",
    # Last, as django-axes asks: it turns a locked-out login into the lock-out page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "pwscup.urls"
# A form posted with a stale CSRF token: the site's 403 page in the reader's language.
CSRF_FAILURE_VIEW = "pwscup.core.error_views.csrf_failure"
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


LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "client_error_without_traceback": {
            "()": "pwscup.core.log_filters.ClientErrorWithoutTraceback"
        }
    },
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("DJANGO_LOG_LEVEL", default="INFO")},
    "loggers": {
        # django-axes logs every successful log-in at INFO: keep its failures and lock-outs only.
        "axes": {"level": "WARNING"},
        # An expected 403 (a team opening /console/) is one warning line, not a traceback; a
        # 500 keeps its traceback.
        "django.request": {"filters": ["client_error_without_traceback"]},
    },
}
