"""The platform as a laptop or a server runs it (pwscup.settings.local, its own var/ folder and
database), in processes of the test's own: commands, a script run through Django, gunicorn."""

import fcntl
import json
import os
import re
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

import requests
from requests.adapters import HTTPAdapter
from urllib3.util.retry import Retry

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


def sqlite_migrated(env: dict) -> None:
    """Give ``env``'s var folder the SQLite database ``manage.py migrate`` makes on the laptop
    settings, as a copy of one migrated once per set of inputs: ``migrate`` costs 12 s of
    CPU, the copy a few milliseconds. The template is named by a digest of the migrations,
    the settings and every installed distribution's version (so a changed one makes a new
    template); it is migrated by that same command on those settings, in a folder of its own,
    under a file lock, then renamed into place, so no half-migrated file is ever copied.
    Every test then owns its copy."""
    from tests.migrated import inputs_digest

    template = Path(tempfile.gettempdir()) / f"pwscup-sqlite-migrated-{inputs_digest()}"
    if not template.is_file():
        with open(f"{template}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not template.is_file():
                _build_sqlite_template(env, template)
    var_dir = Path(env["PWSCUP_VAR_DIR"])
    var_dir.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, var_dir / "db.sqlite3")


def postgres_migrated(url: str) -> None:
    """Give the empty database at ``url`` (a server of a test's own) the tables and rows that
    ``manage.py migrate`` makes, from the suite's migrated template (``tests/migrated.py``):
    a copy of it on the shared server, dumped into ``url`` and dropped (the template itself is
    never connected to: other processes may be creating their test database from it). A
    tenth of the CPU of migrating from nothing."""
    import psycopg
    from django.conf import settings

    from tests.migrated import connection_options, migrated_template, server_url
    from tests.pwscup.postgres import server_bin

    shared = settings.DATABASES["default"]
    copy = f"pwscup_test_dump_{os.getpid()}"
    migrated_template(shared, copy=copy)
    with psycopg.connect(**connection_options(shared), autocommit=True) as conn:
        try:
            dump = subprocess.run(
                [str(server_bin() / "pg_dump"), "--no-owner", "--no-privileges"]
                + ["--dbname", server_url(shared, copy)],
                capture_output=True,
                check=True,
                timeout=300,
            )
        finally:
            conn.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
    loaded = subprocess.run(
        [str(server_bin() / "psql"), "-q", "-v", "ON_ERROR_STOP=1", "--dbname", url],
        input=dump.stdout,
        capture_output=True,
        timeout=300,
    )
    assert loaded.returncode == 0, loaded.stderr.decode()[-3000:]


def _build_sqlite_template(env: dict, template: Path) -> None:
    building = Path(tempfile.mkdtemp(prefix=f"{template.name}-", dir=template.parent))
    try:
        manage({**env, "PWSCUP_VAR_DIR": str(building)}, "migrate", "--noinput")
        # One self-contained file: whatever the write-ahead log still holds goes into it.
        with sqlite3.connect(building / "db.sqlite3") as connection:
            connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        connection.close()
        partial = template.with_name(f"{template.name}.partial-{os.getpid()}")
        shutil.copyfile(building / "db.sqlite3", partial)
        partial.rename(template)
        for old in template.parent.glob("pwscup-sqlite-migrated-*"):
            if old.is_file() and not old.name.startswith(template.name):
                old.unlink(missing_ok=True)  # other inputs' templates and their locks
    finally:
        shutil.rmtree(building, ignore_errors=True)


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


def browser_session() -> requests.Session:
    """A ``requests`` session that behaves as a browser on a kept-alive connection."""
    browser = requests.Session()
    # A browser sends a GET again when the kept-alive connection it reused had just been
    # closed by the server (its keep-alive timeout passed while the page sat idle: gunicorn
    # without nginx in front, as scripts/demo runs it); so does this session, once. Once
    # seen in the SQLite burst: a GET after the 16 log-ins, reset by the peer.
    # Only a reset connection: an answer, 503 with Retry-After included, is the test's to read.
    retry = Retry(
        total=1,
        connect=1,
        read=1,
        status=0,
        other=0,
        allowed_methods={"GET"},
        respect_retry_after_header=False,
        raise_on_status=False,
    )
    browser.mount("http://", HTTPAdapter(max_retries=retry))
    return browser


def logged_in(base: str, username: str, password: str) -> requests.Session:
    """A browser logged in through the log-in form."""
    browser = browser_session()
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
