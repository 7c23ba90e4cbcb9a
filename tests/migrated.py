"""A migrated PostgreSQL database that the suite's test databases are copies of.

Each process of the suite (three under pytest-xdist, one more for the tests run alone)
creates its test database; migrating it costs 10 s of CPU each time. Instead the database
is created with PostgreSQL's ``CREATE DATABASE … TEMPLATE`` (Django's ``TEST["TEMPLATE"]``)
from a template migrated once, and Django's ``migrate`` then finds nothing to apply (it still
runs, with its checks and post-migrate signals). The template is named by a digest of the
migrations, the settings and every installed distribution's version, so a changed migration
or package makes a new one; it is built under an advisory lock by migrating a scratch
database with the test settings and renaming it, so a half-migrated template is never
copied. See benchmarks/production.py, which does the same for the benchmarks' databases.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import sysconfig
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "pwscup_test_migrated_"
LOCK = "SELECT pg_advisory_{}(hashtext('pwscup_test_migrated'))"


def inputs_digest() -> str:
    """A short digest of the migrations, the settings and the installed distributions."""
    paths = sorted(ROOT.glob("pwscup/*/migrations/*.py")) + sorted(
        ROOT.glob("pwscup/settings/*.py")
    )
    digest = hashlib.sha256()
    for path in paths:
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes())
    # The environment's own packages, wherever this process's path also looks (the same
    # digest in a test process, a script and a command).
    site = sorted({sysconfig.get_paths()[key] for key in ("purelib", "platlib")})
    versions = {f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions(path=site)}
    digest.update("\n".join(sorted(versions)).encode())
    return digest.hexdigest()[:16]


def migrated_template(settings_dict: dict, *, copy: str | None = None) -> str:
    """The name of the migrated template on ``settings_dict``'s server, built if missing;
    with ``copy``, a new database of that name is made from it too, under the same lock (so
    a build for other inputs cannot drop the template in between)."""
    import psycopg

    template = PREFIX + inputs_digest()
    with psycopg.connect(**connection_options(settings_dict), autocommit=True) as conn:
        conn.execute(LOCK.format("lock"))
        try:
            known = {row[0] for row in conn.execute("SELECT datname FROM pg_database")}
            if template not in known:
                _build(conn, settings_dict, template, known)
            if copy is not None:
                conn.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{template}"')
        finally:
            conn.execute(LOCK.format("unlock"))
    return template


def connection_options(settings_dict: dict) -> dict:
    """psycopg's options for the ``postgres`` database of ``settings_dict``'s server."""
    options = {"dbname": "postgres", "host": settings_dict.get("HOST") or "127.0.0.1"}
    for key, option in (("PORT", "port"), ("USER", "user"), ("PASSWORD", "password")):
        if settings_dict.get(key):
            options[option] = str(settings_dict[key])
    return options


def server_url(settings_dict: dict, name: str) -> str:
    """The URL of database ``name`` on ``settings_dict``'s server."""
    options = connection_options(settings_dict)
    auth = options.get("user", "")
    if options.get("password"):
        auth += f":{options['password']}"
    server = f"{options['host']}:{options.get('port', 5432)}"
    return f"postgres://{auth}{'@' if auth else ''}{server}/{name}"


def _build(conn, settings_dict: dict, template: str, known: set) -> None:
    import psycopg

    for old in sorted(known):
        if old.startswith(PREFIX) and len(old) == len(template):  # other inputs' templates
            try:  # another run may be copying it right now: then it stays
                conn.execute(f'DROP DATABASE IF EXISTS "{old}"')
            except psycopg.Error:
                pass
    scratch = f"{template}_building"
    conn.execute(f'DROP DATABASE IF EXISTS "{scratch}"')
    conn.execute(f'CREATE DATABASE "{scratch}"')
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "pwscup.settings.test",
        "TEST_DATABASE_URL": server_url(settings_dict, scratch),
    }
    command = [sys.executable, "manage.py", "migrate", "--noinput", "-v0"]
    built = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    if built.returncode != 0:
        conn.execute(f'DROP DATABASE IF EXISTS "{scratch}" WITH (FORCE)')
        raise RuntimeError(f"migrating the test template failed:\n{built.stderr[-3000:]}")
    conn.execute(f'ALTER DATABASE "{scratch}" RENAME TO "{template}"')
