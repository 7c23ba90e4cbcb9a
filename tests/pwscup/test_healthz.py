"""The operator endpoint: database, broker (the real Redis of the test settings), workers."""

import pytest

from pwscup import celery_app

pytestmark = pytest.mark.django_db


def test_healthz_reports_database_broker_and_workers(client):
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert "no-cache" in response.get("Cache-Control", "") or "max-age=0" in response.get(
        "Cache-Control", ""
    )
    payload = response.json()
    assert payload["status"] == "ok"
    assert payload["database"] == "ok"
    assert payload["broker"] == "ok"
    assert isinstance(payload["workers"], int) and payload["workers"] >= 0
    assert payload["queue"] == celery_app.conf.task_default_queue


def test_healthz_reports_an_unreachable_broker_as_degraded(client, monkeypatch):
    # Nothing listens on port 1: the broker check must fail fast and say so (503).
    monkeypatch.setattr(celery_app.conf, "broker_url", "redis://127.0.0.1:1/0")
    response = client.get("/healthz")
    assert response.status_code == 503
    payload = response.json()
    assert payload["status"] == "degraded"
    assert payload["database"] == "ok"
    assert payload["broker"].startswith("error")
    assert payload["workers"] == 0
