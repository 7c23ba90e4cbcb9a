"""gunicorn as ``scripts/demo`` runs it: facing the browsers itself (no nginx), on a laptop.

Threaded workers (``gthread``) as in production (``scripts/docker/gunicorn.conf.py``): a
request that waits — an upload held by a storage that stalls, a slow client's body — holds
one thread, not a whole process. With two sync workers, two stalled uploads held the whole
demo: its home page and ``/healthz`` timed out (field test 4). Two processes of eight
threads keep 14 requests answering beside two stalled ones; the SQLite default waits for its
write lock (``pwscup/settings/base.py``), so threads writing at once queue, never fail.

The application is loaded once, in the master, before it forks its workers (``preload_app``,
as in production): each worker inherits Django and the project's modules instead of
importing them again: master and two workers took 2.6 s of CPU to start and answer four
requests, against 4.2 s with each worker importing them.
Nothing opens a database connection while the application loads, so no worker inherits one.
"""

import os

bind = os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("GUNICORN_WORKERS", "2"))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", "8"))
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "60"))
preload_app = True
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-")
