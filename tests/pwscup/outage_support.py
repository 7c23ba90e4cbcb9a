"""The platform as a laptop or a server runs it (pwscup.settings.local, its own var/ folder and
database), in processes of the test's own: commands, a script run through Django, gunicorn."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import requests

from tests.support import demo_gunicorn_command, running

ROOT = Path(__file__).resolve().parents[2]


def site_env(var_dir: Path, **extra: str) -> dict:
    """This machine's environment less the platform's own variables (so nothing of a
    developer's .env or of the test run leaks in), with the laptop settings on ``var_dir``:
    SQLite and the filesystem broker there unless ``extra`` names a DATABASE_URL."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "PWSCUP_", "DATABASE_URL", "REDIS_URL", "CELERY_"))
        and not key.startswith(("TEST_", "CACHE_URL", "AWS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="pwscup.settings.local",
        PWSCUP_VAR_DIR=str(var_dir),
        PYTHONUNBUFFERED="1",
        **extra,
    )
    return env


def manage(env: dict, *args: str, timeout: float = 600) -> str:
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-3000:]
    return result.stdout


def django_script(env: dict, code: str, timeout: float = 300):
    """Run ``code`` after ``django.setup()``; it prints one JSON line last, returned parsed."""
    result = subprocess.run(
        [sys.executable, "-c", "import django\ndjango.setup()\n" + code],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def status_of(url: str) -> int | None:
    """The answer's status, ``None`` while the server is not listening or still starting."""
    try:
        return requests.get(url, timeout=10).status_code
    except (requests.ConnectionError, requests.Timeout):
        return None


def csrf_token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page).group(1)


def logged_in(base: str, username: str, password: str) -> requests.Session:
    browser = requests.Session()
    login = base + "/accounts/login/"
    page = browser.get(login, timeout=30)
    answer = browser.post(
        login,
        {"username": username, "password": password, "csrfmiddlewaretoken": csrf_token(page.text)},
        headers={"Referer": login},
        timeout=30,
    )
    assert answer.status_code == 200 and answer.url.rstrip("/") == base, answer.url
    return browser


def demo_gunicorn(env: dict, port: int, log_path: Path):
    """gunicorn as scripts/demo starts it (its configuration file), answering on ``port``."""
    command = [*demo_gunicorn_command(), "--bind", f"127.0.0.1:{port}"]
    return running(
        command,
        env=env,
        log_path=log_path,
        ready=lambda: status_of(f"http://127.0.0.1:{port}/accounts/login/") == 200,
        what="gunicorn to answer",
    )
