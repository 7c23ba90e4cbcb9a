from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "pwscup.core"

    def ready(self):
        # The Celery app is made current (and default, for every thread) in every Django
        # process (web, worker, commands), so that ``celery.current_app``, through which the
        # product sends its jobs, and ``shared_task``'s ``delay`` use the project's settings.
        from pwscup.celery import app  # noqa: F401
