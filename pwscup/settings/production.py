"""Production: secrets must come from the environment."""

from django.core.exceptions import ImproperlyConfigured

from .base import *  # noqa: F403
from .base import DATABASES, INSECURE_DEVELOPMENT_KEY, env

# No default: without DJANGO_SECRET_KEY the settings refuse to load (ImproperlyConfigured),
# and so they do with an empty key or one of the placeholders ever shipped in this repository.
SECRET_KEY = env("DJANGO_SECRET_KEY")
if SECRET_KEY.strip() in {"", "change-me", "change-me-in-production", INSECURE_DEVELOPMENT_KEY}:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is empty or a placeholder: set a long random secret, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
# Django's own measure of a guessable key (its check security.W009), refused at start rather
# than warned about: sessions, password-reset links and CSRF tokens are signed with it. The
# message says which part of the measure the key fails.
if SECRET_KEY.startswith("django-insecure-"):
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY starts with 'django-insecure-', the mark of a key Django made for "
        "development: set a random secret of at least 50 characters, e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
if len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5:
    raise ImproperlyConfigured(
        f"DJANGO_SECRET_KEY is too weak ({len(SECRET_KEY)} characters, "
        f"{len(set(SECRET_KEY))} different): set a random secret of at least 50 "
        "characters (5 or more different), e.g. "
        "python -c 'import secrets; print(secrets.token_urlsafe(50))'"
    )
DEBUG = False
# Behind the reverse proxy (scripts/docker/nginx.conf), which sets these headers itself.
SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
PWSCUP_CLIENT_IP_HEADER = env("PWSCUP_CLIENT_IP_HEADER", default="HTTP_X_REAL_IP")
SESSION_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
CSRF_COOKIE_SECURE = env.bool("DJANGO_SECURE_COOKIES", default=True)
# HTTPS only (`manage.py check --deploy` passes with these defaults). HSTS starts short, as
# Django advises: raise DJANGO_HSTS_SECONDS (e.g. 31536000) once HTTPS is known to work.
SECURE_SSL_REDIRECT = env.bool("DJANGO_SECURE_SSL_REDIRECT", default=True)
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]  # the container health check speaks plain HTTP
SECURE_HSTS_SECONDS = env.int("DJANGO_HSTS_SECONDS", default=3600)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("DJANGO_HSTS_INCLUDE_SUBDOMAINS", default=True)
SECURE_HSTS_PRELOAD = env.bool("DJANGO_HSTS_PRELOAD", default=True)

# Persistent database connections: each gunicorn thread (and Celery process) keeps its
# connection for this many seconds instead of opening one per request (a PostgreSQL
# connection starts a server process: about as much CPU as a cached page). A connection
# that broke meanwhile is noticed before a request uses it. 0 restores one per request.
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DJANGO_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
