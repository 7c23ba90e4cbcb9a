"""The Celery application: one worker process kind scores every upload."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "pwscup.settings.local")

app = Celery("pwscup")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
