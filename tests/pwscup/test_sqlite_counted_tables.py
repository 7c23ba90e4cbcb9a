"""The laptop's SQLite database counts the same tables toward the page generation as
PostgreSQL does (``accounts.PageGeneration``; docs/architecture.md, "The page generation").

Django's SQLite schema editor rebuilds a table to add a column that is not null, and SQLite
drops a table's triggers with it: the round table lost its triggers that way once (the
three settings of the attack score against the top N releases), so a round's settings saved
on a laptop left every cached access and page as it was (the Results tab kept the old rule).
``sqlite_migrated`` is the database ``manage.py migrate`` makes on the laptop settings."""

import sqlite3

import pytest
from django.db import connection

from tests.pwscup.outage_support import site_env, sqlite_migrated

pytestmark = pytest.mark.django_db

TRIGGER = "pwscup_page_generation"


def test_every_table_counted_on_postgresql_is_counted_on_sqlite(tmp_path):
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT event_object_table FROM information_schema.triggers "
            "WHERE trigger_name = %s",
            [TRIGGER],
        )
        counted = {table for (table,) in cursor.fetchall()}
    assert "competitions_round" in counted  # the guard: the comparison reads the triggers
    env = site_env(tmp_path / "var")
    sqlite_migrated(env)
    with sqlite3.connect(tmp_path / "var" / "db.sqlite3") as database:
        triggers = {
            (table, name)
            for name, table in database.execute(
                "SELECT name, tbl_name FROM sqlite_master WHERE type = 'trigger'"
            )
        }
    database.close()
    missing = sorted(
        f"{TRIGGER}_{event}_{table}"
        for table in counted
        for event in ("insert", "update", "delete")
        if (table, f"{TRIGGER}_{event}_{table}") not in triggers
    )
    assert not missing
