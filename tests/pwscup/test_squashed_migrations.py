"""The squashed migrations (``replaces``; docs/operations.md, "Upgrading"): a database made
anew runs them, one that has run the migrations they replace counts them as run, and one
that has run some goes on with the rest. Each way ends with the same tables, columns,
constraints, indexes and triggers as the test database (made anew, from the squashes).

Slow (about 20 s of CPU; its module is scheduled first): the
database half-way through goes on through dp's and sequential's old migrations."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from tests.history import history_database

pytestmark = [pytest.mark.slow, pytest.mark.django_db]

# Half-way through two apps' squashed migrations (a deployment of an earlier version).
HALF_WAY = [("dp", "0002_config_text"), ("sequential", "0003_release_job")]


def schema(db) -> dict:
    """Each table's columns and its constraints and indexes by what they are (their names
    left out: an index made before a field was renamed keeps the old field's name)."""
    tables = {}
    with db.cursor() as cursor:
        for table in db.introspection.table_names(cursor):
            columns = {
                (column.name, column.type_code, column.null_ok, column.default)
                for column in db.introspection.get_table_description(cursor, table)
            }
            constraints = {
                (
                    tuple(details["columns"]),
                    details["primary_key"],
                    details["unique"],
                    details["foreign_key"],
                    details["index"],
                    details["check"],
                    details.get("type"),
                )
                for details in db.introspection.get_constraints(cursor, table).values()
            }
            tables[table] = (columns, constraints)
        cursor.execute(
            "SELECT tgrelid::regclass::text, tgname FROM pg_trigger WHERE NOT tgisinternal"
        )
        tables["(triggers)"] = set(cursor.fetchall())
    return tables


def recorded(db) -> set[tuple[str, str]]:
    with db.cursor() as cursor:
        cursor.execute("SELECT app, name FROM django_migrations")
        return set(cursor.fetchall())


def test_a_database_half_way_through_squashed_migrations_goes_on_to_the_same_end():
    with history_database() as history:
        history.migrate(HALF_WAY)
        executor = MigrationExecutor(history.connection)
        plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
        to_run = {(migration.app_label, migration.name) for migration, _ in plan}
        history.migrate()  # as manage.py migrate does
        ran = recorded(history.connection)
        ended = schema(history.connection)
    # dp and sequential go on with the migrations they had begun; scorer, never begun,
    # runs its squash, not the migrations it replaces, then the migrations after it.
    assert {("dp", "0003_estimate_queued"), ("sequential", "0014_field_names")} <= to_run
    assert {name for app, name in to_run if app == "scorer"} == {
        "0001_squashed_0009_field_names",
        "0010_auto_freeze",
        "0011_attack_selected",
        "0012_voided_uploads",
        "0013_slot_salt",
    }
    # Then each squash counts as run, and so do the migrations it replaces.
    assert {("dp", "0013_field_names"), ("dp", "0001_squashed_0013_field_names")} <= ran
    assert {
        ("sequential", "0014_field_names"),
        ("sequential", "0001_squashed_0014_field_names"),
    } <= ran
    assert {("scorer", "0001_squashed_0009_field_names"), ("scorer", "0001_initial")} <= ran
    assert ended == schema(connection)


def test_the_comparison_sees_a_missing_trigger_and_a_changed_column():
    before = schema(connection)
    with connection.cursor() as cursor:
        cursor.execute("DROP TRIGGER pwscup_page_generation ON dp_dpround")
        cursor.execute('ALTER TABLE dp_estimate ALTER COLUMN "note" DROP NOT NULL')
    after = schema(connection)
    assert after["(triggers)"] == before["(triggers)"] - {("dp_dpround", "pwscup_page_generation")}
    assert after["dp_estimate"] != before["dp_estimate"]
