"""The Django project. ``pwscup.celery_app`` is loaded on first use, so that importing a
pure subpackage (the team client ``pwscup.client``) pulls neither Celery nor Django; the
Django process loads it at start-up (``pwscup.core.apps.CoreConfig.ready``)."""

__all__ = ("celery_app",)


def __getattr__(name: str):
    if name == "celery_app":
        from .celery import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
