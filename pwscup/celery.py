"""The Celery application: one worker process kind scores every upload."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.local")

app = Celery("pwscup")
# ``Celery()`` makes it the current app of this thread; the default app is the current app
# of every other thread (a request's, a health check's): the product sends its jobs and asks
# its workers through ``celery.current_app`` (``pwscup.submissions.broker``).
app.set_default()
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
