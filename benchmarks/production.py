"""What the benchmarks that start the production pair share: its environment, the admin
connection that creates and drops their databases, and a migrated database (imported by those scripts, which run
with this folder first on ``sys.path``)."""

from __future__ import annotations

import secrets
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def production_environment(
    *,
    database: str,
    name: str,
    port: int,
    scratch: Path,
    workers: int,
    broker_url: str,
    cache_url: str,
    threads: int | None = None,
) -> dict:
    """Production settings on loopback: database ``name`` of the server ``database``, a
    queue of the same name, the broker and cache at their URLs, the run's folders under
    ``scratch``, gunicorn bound to ``port``."""
    env = {
        "DJANGO_SETTINGS_MODULE": "pwscup.settings.production",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DATABASE_URL": f"{database.rstrip('/')}/{name}",
        "CELERY_BROKER_URL": broker_url,
        "CACHE_URL": cache_url,
        "CELERY_QUEUE": name,
        "DJANGO_ALLOWED_HOSTS": "127.0.0.1,localhost",
        "DJANGO_SECURE_SSL_REDIRECT": "0",
        "DJANGO_SECURE_COOKIES": "0",
        "DJANGO_LOG_LEVEL": "WARNING",
        "PWSCUP_MEDIA_ROOT": str(scratch / "media"),
        "PWSCUP_VAR_DIR": str(scratch / "var"),
        "DJANGO_STATIC_ROOT": str(scratch / "static"),
        "GUNICORN_BIND": f"127.0.0.1:{port}",
        "GUNICORN_WORKERS": str(workers),
        "PYTHONUNBUFFERED": "1",
    }
    if threads is not None:
        env["GUNICORN_THREADS"] = str(threads)
    return env


def admin_sql(database: str, statement: str) -> None:
    """Run ``statement`` on the server's ``postgres`` database (CREATE / DROP DATABASE)."""
    import psycopg

    with psycopg.connect(f"{database.rstrip('/')}/postgres", autocommit=True) as conn:
        conn.execute(statement)


def database_migrated(database: str, name: str, env: dict) -> None:
    """Create the benchmark's database ``name`` on the server, migrate it and collect the
    static files, with the production environment ``env``."""
    admin_sql(database, f'CREATE DATABASE "{name}"')
    for command in (["migrate", "-v0"], ["collectstatic", "--noinput", "-v0"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=REPO, check=True, env=env)
