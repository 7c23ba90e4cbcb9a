"""What the benchmarks that start the production pair share: its environment, the admin
connection that creates and drops their databases, a migrated database and the collected static
files, each made once per set of inputs and copied (imported by those scripts, which run with
this folder first on ``sys.path``)."""

from __future__ import annotations

import hashlib
import os
import secrets
import shutil
import subprocess
import sys
import tempfile
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
    """Create the benchmark's database ``name`` on the server, migrated, and collect the
    static files, with the production environment ``env``."""
    database_created(database, name, env)
    static_collected(env)


def database_created(database: str, name: str, env: dict) -> None:
    """Create the database ``name`` as a copy of a migrated template (PostgreSQL's
    ``CREATE DATABASE … TEMPLATE``: about 0.1 s where ``migrate`` takes 10 s of CPU).

    The template is named by a digest of every migration file and every installed
    distribution's version (``_inputs_digest``), so a changed migration or package makes a
    new one; it is built once, under an advisory lock, by migrating a scratch database and
    renaming it, so a half-migrated template is never copied, and the templates of other
    digests are dropped then."""
    import psycopg

    digest = _inputs_digest(sorted(REPO.glob("pwscup/*/migrations/*.py")))
    template = f"pwscup_migrated_{digest}"
    server = database.rstrip("/")
    with psycopg.connect(f"{server}/postgres", autocommit=True) as conn:
        conn.execute("SELECT pg_advisory_lock(hashtext('pwscup_migrated'))")
        try:
            known = {row[0] for row in conn.execute("SELECT datname FROM pg_database")}
            if template not in known:
                _build_template(conn, server, template, env, known)
            conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        finally:
            conn.execute("SELECT pg_advisory_unlock(hashtext('pwscup_migrated'))")


def _build_template(conn, server: str, template: str, env: dict, known: set) -> None:
    scratch = f"{template}_building"
    for old in known:
        if old.startswith("pwscup_migrated_"):
            conn.execute(f'DROP DATABASE IF EXISTS "{old}" WITH (FORCE)')
    conn.execute(f'CREATE DATABASE "{scratch}"')
    migrate_env = {**env, "DATABASE_URL": f"{server}/{scratch}"}
    command = [sys.executable, "manage.py", "migrate", "-v0"]
    subprocess.run(command, cwd=REPO, check=True, env=migrate_env)
    conn.execute(f'ALTER DATABASE "{scratch}" RENAME TO "{template}"')


def static_collected(env: dict) -> None:
    """Fill ``env``'s static root as ``collectstatic`` would, from a copy collected once per
    set of inputs (the compressed files cost 20 s of CPU to make; a hard-linked copy of the
    523 files takes a fraction of a second). The run owns its folder: the links point at
    files nobody writes, and the copy is made under a lock, then renamed into place."""
    import fcntl

    inputs = sorted(path for path in (REPO / "static").rglob("*") if path.is_file())
    cache = Path(tempfile.gettempdir()) / f"pwscup-collected-static-{_inputs_digest(inputs)}"
    if not cache.is_dir():
        with open(f"{cache}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            if not cache.is_dir():
                building = Path(tempfile.mkdtemp(prefix=f"{cache.name}-", dir=cache.parent))
                collect = [sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"]
                env_here = {**env, "DJANGO_STATIC_ROOT": str(building)}
                subprocess.run(collect, cwd=REPO, check=True, env=env_here)
                building.rename(cache)
    target = Path(env["DJANGO_STATIC_ROOT"])
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(cache, target, copy_function=_link_or_copy)


def _link_or_copy(source: str, destination: str) -> None:
    try:
        os.link(source, destination)
    except OSError:  # another file system
        shutil.copy2(source, destination)


def _inputs_digest(paths: list[Path]) -> str:
    """A short digest of ``paths``' names and contents and of every installed distribution's
    name and version (Django's own migrations and static files come with its version)."""
    from importlib import metadata

    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(REPO)).encode() + b"\0" + path.read_bytes())
    versions = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    digest.update("\n".join(versions).encode())
    return digest.hexdigest()[:16]
