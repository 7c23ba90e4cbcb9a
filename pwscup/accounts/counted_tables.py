"""A kind's round table counted toward the page generation (``accounts.PageGeneration``,
``RoundKind.counted_row``): the one migration operation every kind's migration uses.

The trigger is the core's (``accounts/migrations/0007_page_generation.py``): on PostgreSQL
one per statement calling the core's function, on SQLite one per event and row setting a
random 53-bit value, never one the row held before. It reads only the historical model's
table name, so a later change to the kind's models cannot change what an old migration does.
"""

from django.db import migrations

TRIGGER = "pwscup_page_generation"
FUNCTION = "pwscup_page_generation_bump"
EVENTS = ("INSERT", "UPDATE", "DELETE")
SQLITE_UPSERT = (
    "INSERT INTO accounts_pagegeneration (id, value) VALUES (1, (random() & 9007199254740991)) "
    "ON CONFLICT (id) DO UPDATE SET value = excluded.value"
)


def counted_table(app_label: str, model_name: str) -> migrations.RunPython:
    """The operation that makes every write to the table of ``app_label.model_name`` move
    the page generation (and, reversed, stops it)."""

    def table(apps) -> str:
        return apps.get_model(app_label, model_name)._meta.db_table

    def create(apps, schema_editor) -> None:
        name = table(apps)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(
                f'CREATE TRIGGER {TRIGGER} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{name}" '
                f"FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
            )
            return
        for event in EVENTS:
            schema_editor.execute(
                f'CREATE TRIGGER {TRIGGER}_{event.lower()}_{name} BEFORE {event} ON "{name}" '
                f"BEGIN {SQLITE_UPSERT}; END"
            )

    def drop(apps, schema_editor) -> None:
        name = table(apps)
        if schema_editor.connection.vendor == "postgresql":
            schema_editor.execute(f'DROP TRIGGER IF EXISTS {TRIGGER} ON "{name}"')
            return
        for event in EVENTS:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_{event.lower()}_{name}")

    return migrations.RunPython(create, drop)
