"""gunicorn behind the buffering reverse proxy (scripts/docker/nginx.conf).

nginx hands over a request only once its body has fully arrived, so the sync workers never
wait on a slow client; ``timeout`` bounds the application's own work (an upload is checked,
hashed and stored in the request, scoring runs in the Celery worker).
"""

import os

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = "sync"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
keepalive = 2
# Recycle workers now and then (memory held by pandas after large uploads).
max_requests = 1000
max_requests_jitter = 100
accesslog = "-"
