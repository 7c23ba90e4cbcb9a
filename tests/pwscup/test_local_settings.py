"""The demo's settings (pwscup.settings.local): DEBUG off by default, static files served."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json
import django
django.setup()
from django.conf import settings
from django.test import Client

client = Client(HTTP_HOST="127.0.0.1", HTTP_ACCEPT_LANGUAGE="en")
missing = client.get("/no-such-page/")
static = client.get("/static/pwscup.css")
icon = client.get("/favicon.ico")
icon_file = client.get(icon["Location"]) if icon.has_header("Location") else icon
print(json.dumps({
    "debug": settings.DEBUG,
    "missing_status": missing.status_code,
    "missing_page": missing.content.decode(),
    "static_status": static.status_code,
    "static_type": static.get("Content-Type", ""),
    "static_body": b"".join(static.streaming_content).decode()[:200],
    "icon_status": icon.status_code,
    "icon_file_status": icon_file.status_code,
    "icon_type": icon_file.get("Content-Type", ""),
}))
"""


def _probe(tmp_path, **env_overrides) -> dict:
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PWSCUP_", "DATABASE_URL", "REDIS_URL"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="pwscup.settings.local",
        PWSCUP_VAR_DIR=str(tmp_path),
        DJANGO_STATIC_ROOT=str(tmp_path / "static-not-collected"),
        **env_overrides,
    )
    result = subprocess.run(
        [sys.executable, "-c", PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.fixture(scope="module")
def seen(tmp_path_factory) -> dict:
    """The probe on the demo's default settings, run once for the tests that read it (a
    Django start is 1.5 s of CPU)."""
    return _probe(tmp_path_factory.mktemp("var"))


def test_the_demo_runs_without_debug_and_its_404_page_lists_no_url_patterns(seen):
    assert seen["debug"] is False
    assert seen["missing_status"] == 404
    assert "This page does not exist, or it is not available to you (yet)." in seen["missing_page"]
    assert "URLconf" not in seen["missing_page"]
    assert "healthz" not in seen["missing_page"]  # one of the URL patterns


def test_the_demo_serves_static_files_without_collectstatic(seen):
    assert seen["static_status"] == 200
    assert seen["static_type"].startswith("text/css")
    assert seen["static_body"].startswith(":root {")


def test_the_browsers_favicon_request_gets_the_sites_icon(seen):
    assert seen["icon_status"] == 302
    assert seen["icon_file_status"] == 200 and seen["icon_type"].startswith("image/svg+xml")
    assert '<link rel="icon" href="/static/favicon.svg"' in seen["missing_page"]  # every page


def test_debug_can_still_be_asked_for(tmp_path):
    assert _probe(tmp_path, DJANGO_DEBUG="true")["debug"] is True
