from django.apps import AppConfig


class CoreConfig(AppConfig):
    name = "pwscup.core"

    def ready(self):
        # The Celery app is made current in every Django process (web, worker, commands), so
        # that ``shared_task``'s ``delay`` sends with the project's broker settings.
        from pwscup.celery import app  # noqa: F401
