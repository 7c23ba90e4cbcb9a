"""Operator endpoints."""

from django.db import connection
from django.http import JsonResponse
from django.views.decorators.cache import never_cache

from pwscup import celery_app


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return "ok"
    except Exception as error:  # noqa: BLE001 - reported, not raised
        return f"error: {error.__class__.__name__}"


def _broker_and_workers() -> tuple[str, int]:
    try:
        with celery_app.connection_for_write() as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as error:  # noqa: BLE001
        return f"error: {error.__class__.__name__}", 0
    try:
        replies = celery_app.control.ping(timeout=1.0) or []
    except Exception:  # noqa: BLE001 - a broker without broadcast still counts as reachable
        replies = []
    return "ok", len(replies)


@never_cache
def healthz(request):
    database = _database()
    broker, workers = _broker_and_workers()
    healthy = database == "ok" and broker == "ok"
    payload = {
        "status": "ok" if healthy else "degraded",
        "database": database,
        "broker": broker,
        "workers": workers,
        "queue": celery_app.conf.task_default_queue,
    }
    return JsonResponse(payload, status=200 if healthy else 503)
