"""The test settings' database engine (``pwscup.settings.test_postgresql``): a test's tables
are emptied by ``DELETE`` (a tenth of ``TRUNCATE``'s time), rows that refer to each other
included, and a flush that restarts the sequences is still Django's ``TRUNCATE``."""

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection

pytestmark = pytest.mark.django_db(transaction=True)


def _tables() -> list[str]:
    return connection.introspection.django_table_names(only_existing=True, include_views=False)


def _rows() -> dict[str, int]:
    with connection.cursor() as cursor:
        counts = {}
        for table in _tables():
            cursor.execute(f"SELECT count(*) FROM {connection.ops.quote_name(table)}")
            counts[table] = cursor.fetchone()[0]
    return counts


def test_the_tests_flush_deletes_and_leaves_every_table_empty():
    tables = _tables()
    statements = connection.ops.sql_flush(no_style(), tables)
    assert len(statements) == len(tables)
    assert all(statement.startswith("DELETE FROM ") for statement in statements)
    assert statements == sorted(statements)  # the same order in every process
    # A user in a group: auth_group comes before auth_user_groups, which refers to it, in
    # the flush's order; the keys are checked at the commit, when both are empty.
    user = User.objects.create_user("flushed", password="x" * 12)
    user.groups.add(Group.objects.create(name="flushed"))
    assert _rows()["auth_user_groups"] == 1

    # As a transaction=True test's teardown calls it (no sequence restarted).
    call_command(
        "flush", interactive=False, verbosity=0, reset_sequences=False, inhibit_post_migrate=True
    )

    # The one row left is the page generation's, which the counted tables' triggers write
    # again when their rows are deleted after it (the deletes go in the tables' alphabetical
    # order, whatever the process's hash seed), as on any write (accounts 0007): a new
    # value, never one a page was kept under.
    assert {table: n for table, n in _rows().items() if n} == {"accounts_pagegeneration": 1}


def test_a_flush_that_restarts_the_sequences_is_django_s_truncate():
    statements = connection.ops.sql_flush(no_style(), _tables(), reset_sequences=True)
    assert len(statements) == 1
    assert statements[0].startswith("TRUNCATE ") and statements[0].endswith("RESTART IDENTITY;")
    Group.objects.create(name="first")
    Group.objects.create(name="second")

    call_command(
        "flush", interactive=False, verbosity=0, reset_sequences=True, inhibit_post_migrate=True
    )

    assert Group.objects.count() == 0
    assert Group.objects.create(name="again").pk == 1
