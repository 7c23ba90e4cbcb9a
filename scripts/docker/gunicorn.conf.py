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

bind = os.environ.get("GUNICORN_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "3"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "4"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
graceful_timeout = 30
# Longer than nginx's upstream keepalive_timeout (4 s): nginx, not gunicorn, closes an idle
# kept-alive connection, so nginx never sends a request on a connection being closed.
keepalive = 5
# Recycle workers now and then (memory held by pandas after large uploads).
max_requests = 1000
max_requests_jitter = 100
accesslog = "-"
