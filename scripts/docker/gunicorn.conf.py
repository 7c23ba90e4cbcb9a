"""gunicorn behind the buffering reverse proxy (scripts/docker/nginx.conf).

nginx hands over a request only once its body has fully arrived, so a worker thread never
waits on a slow client; ``timeout`` bounds the application's own work (an upload is checked,
hashed and stored in the request, scoring runs in the Celery worker).

Threaded workers (``gthread``): a process runs ``threads`` requests at once, so one waiting
on PostgreSQL or Redis leaves the CPU to another, and connections are kept alive between
requests (nginx keeps a pool of them, see its upstream block) instead of one TCP connection
per request. Each thread keeps its own database connection (``DJANGO_CONN_MAX_AGE``):
workers × threads connections to PostgreSQL in all.
"""

import os

# Loopback unless told otherwise: gunicorn must only ever be reached through nginx (a slow
# client would hold a worker thread; a forged X-Real-IP would be ignored, but still). Compose
# sets 0.0.0.0:8000 for the web service, whose port is published to no one but the proxy.
bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
# Longer than nginx's upstream keepalive_timeout (4 s): nginx, not gunicorn, closes an idle
# kept-alive connection, so nginx never sends a request on a connection being closed.
keepalive = 5
# The application is imported once, in the master, before the workers fork: a worker that is
# recycled (below) is a fork of a warm process, not a new import of Django, pandas and the
# URL and template machinery (measured: with 1,000 requests per worker and no preload, a
# worker was re-imported every few seconds under load and its requests waited 1-2 s).
preload_app = True
# Recycle workers now and then (memory held by pandas after large uploads), rarely enough
# that recycling is not part of the cost of a busy minute.
max_requests = int(os.environ.get("GUNICORN_MAX_REQUESTS", "20000"))
max_requests_jitter = max_requests // 10
# nginx logs every request (scripts/docker/nginx.conf); gunicorn's own access log, which
# costs a formatted line per request in the worker, is off unless asked for ("-": stdout).
accesslog = os.environ.get("GUNICORN_ACCESS_LOG") or None


def when_ready(server):
    """Warm the master before it forks: the URL resolver and every template of the project
    are compiled once here (the cached template loader keeps them) and inherited by every
    worker (and by a recycled one), so no user's first page pays for it."""
    from pathlib import Path

    from django.template import TemplateSyntaxError, engines
    from django.urls import get_resolver

    get_resolver().url_patterns  # noqa: B018 - imports every urls module
    warmed = 0
    for engine in engines.all():
        # ``template_dirs``: the engine's DIRS and, with APP_DIRS, every app's templates.
        for folder in map(Path, engine.template_dirs):
            if "site-packages" in folder.parts:
                continue  # Django's and the libraries' own templates: the admin's only
            for path in sorted(folder.rglob("*.html")):
                try:
                    engine.get_template(path.relative_to(folder).as_posix())
                    warmed += 1
                except TemplateSyntaxError as error:  # a broken template must not stop it
                    server.log.warning("warm-up: %s: %s", path, error)
    server.log.info("warm-up: %d templates compiled", warmed)
