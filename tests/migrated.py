"""A migrated PostgreSQL database that the suite's test databases are copies of.

Each process of the suite (three under pytest-xdist, one more for the tests run alone)
creates its test database; migrating it costs 10 s of CPU each time. Instead the database
is created with PostgreSQL's ``CREATE DATABASE … TEMPLATE`` (Django's ``TEST["TEMPLATE"]``)
from a template migrated once, and Django's ``migrate`` then finds nothing to apply (it still
runs, with its checks and post-migrate signals). The template is named by a digest of the
migration files (their paths and contents), the settings and every installed distribution's
version, so a changed migration or package makes a new one, and two trees (two clones) whose
migrations differ use two templates; it is built under an advisory lock by migrating a scratch
database with the test settings and renaming it, so a half-migrated template is never
copied. See benchmarks/production.py, which does the same for the benchmarks' databases.

Each use of a template records on it (its database comment) which tree used it and when.
Building a template drops another one only when no other tree has used it for
``STALE_AFTER`` (this tree's own former template at once, another tree's after hours of
disuse): a tree running its suite on other migrations keeps its template meanwhile.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import sysconfig
import time
from importlib import metadata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PREFIX = "pwscup_test_migrated_"
LOCK = "SELECT pg_advisory_{}(hashtext('pwscup_test_migrated'))"
#: How long a template another tree used stays when a build for other inputs cleans up.
STALE_AFTER = 6 * 3600  # seconds: longer than any run of the suite
#: The name a template's uses give to a tree that did not record itself (an older copy of
#: this module): its template stays ``STALE_AFTER`` from the moment it is first seen.
UNKNOWN_TREE = "?"


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
            known = {
                name: comment
                for name, comment in conn.execute(_TEMPLATES, [PREFIX + "%"])
                if name.startswith(PREFIX)
            }
            if template not in known:
                _stale_dropped(conn, known, keep=template)
                _build(conn, settings_dict, template)
            _stamp(conn, template, known.get(template), tree=str(ROOT), now=time.time())
            if copy is not None:
                conn.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{template}"')
        finally:
            conn.execute(LOCK.format("unlock"))
    return template


def databases_from_template(databases: dict) -> None:
    """Give each PostgreSQL database of ``databases`` (Django's ``DATABASES``) that names no
    test template the migrated one: its test database is then created as a copy of it."""
    for database in databases.values():
        test = database.setdefault("TEST", {})
        if database["ENGINE"].endswith("postgresql") and not test.get("TEMPLATE"):
            test["TEMPLATE"] = migrated_template(database)


#: The option of the benchmarks that create a test database (their smoke runs pass it).
FROM_TEMPLATE_HELP = (
    "create the test database as a copy of the test suite's migrated template "
    "(tests/migrated.py), not by migrating it"
)


def settings_databases_from_template() -> None:
    """The running Django settings' test databases made from the migrated template (for a
    script that creates them itself: the benchmarks' ``--from-template``)."""
    from django.conf import settings

    databases_from_template(settings.DATABASES)


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


_TEMPLATES = (
    "SELECT datname, shobj_description(oid, 'pg_database') FROM pg_database WHERE datname LIKE %s"
)


def template_uses(comment: str | None) -> dict[str, float]:
    """The uses a template's comment records: ``{tree: when (seconds since the epoch)}``;
    ``{}`` for a template none is recorded on."""
    try:
        uses = json.loads(comment or "{}")
    except ValueError:
        return {}
    if not isinstance(uses, dict):
        return {}
    return {str(tree): at for tree, at in uses.items() if isinstance(at, int | float)}


def templates_to_drop(templates: dict, *, keep: str, tree: str, now: float) -> list[str]:
    """Which of ``templates`` (``{name: comment}``) a build of ``keep`` by ``tree`` drops:
    another inputs' template that no tree but this one has used for ``STALE_AFTER``. One
    that another tree used lately stays (that tree's run may copy it again: its later
    processes, its tests run alone), and so does one whose uses are not recorded yet."""
    dropped = []
    for name, comment in sorted(templates.items()):
        if name == keep or not name.startswith(PREFIX) or len(name) != len(keep):
            continue  # this template, or a scratch database being built
        uses = template_uses(comment)
        recent = [other for other, at in uses.items() if other != tree and now - at < STALE_AFTER]
        if uses and not recent:
            dropped.append(name)
    return dropped


def _stale_dropped(conn, known: dict, *, keep: str) -> None:
    """Drop the stale templates of other inputs (``templates_to_drop``); first record a use
    by an unknown tree now on each template none is recorded on, so that it is dropped
    ``STALE_AFTER`` later at the earliest."""
    import psycopg

    now = time.time()
    for name, comment in known.items():
        if name != keep and len(name) == len(keep) and not template_uses(comment):
            _stamp(conn, name, comment, tree=UNKNOWN_TREE, now=now)
    for old in templates_to_drop(known, keep=keep, tree=str(ROOT), now=now):
        try:  # another run may be copying it right now: then it stays
            conn.execute(f'DROP DATABASE IF EXISTS "{old}"')
        except psycopg.Error:
            pass


def _stamp(conn, template: str, comment: str | None, *, tree: str, now: float) -> None:
    """Record on ``template`` that ``tree`` uses it now (the uses older than ``STALE_AFTER``
    forgotten). A server that refuses the comment records nothing: the template then stays
    until it is dropped by hand."""
    import psycopg

    uses = {t: at for t, at in template_uses(comment).items() if now - at < STALE_AFTER}
    uses[tree] = now
    text = json.dumps(uses, sort_keys=True).replace("'", "''")
    try:
        conn.execute(f"COMMENT ON DATABASE \"{template}\" IS '{text}'")
    except psycopg.Error:
        pass


def _build(conn, settings_dict: dict, template: str) -> None:
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
