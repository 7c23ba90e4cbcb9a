"""The 2015 round's row counts toward the page generation (``accounts.PageGeneration``):
its pages are kept (``RoundKind.counted_row``) and show its settings and state, so a write
to it (a freeze, a publication, a settings change) moves the generation as the core's
tables do (``accounts/migrations/0007_page_generation.py``, whose function it calls)."""

from django.db import migrations

TRIGGER = "pwscup_page_generation"
# SQLite's statement (PostgreSQL's is the function's): a random 53-bit value, never one the
# row held before (accounts/migrations/0007_page_generation.py).
SQLITE_UPSERT = (
    "INSERT INTO accounts_pagegeneration (id, value) VALUES (1, (random() & 9007199254740991)) "
    "ON CONFLICT (id) DO UPDATE SET value = excluded.value"
)
EVENTS = ("INSERT", "UPDATE", "DELETE")


def _table(apps) -> str:
    return apps.get_model("pwscup2015", "Pwscup2015Round")._meta.db_table


def create_trigger(apps, schema_editor):
    table = _table(apps)
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(
            f'CREATE TRIGGER {TRIGGER} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}" '
            "FOR EACH STATEMENT EXECUTE FUNCTION pwscup_page_generation_bump()"
        )
        return
    for event in EVENTS:
        schema_editor.execute(
            f'CREATE TRIGGER {TRIGGER}_{event.lower()}_{table} BEFORE {event} ON "{table}" '
            f"BEGIN {SQLITE_UPSERT}; END"
        )


def drop_trigger(apps, schema_editor):
    table = _table(apps)
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f'DROP TRIGGER IF EXISTS {TRIGGER} ON "{table}"')
        return
    for event in EVENTS:
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {TRIGGER}_{event.lower()}_{table}")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_page_generation"),
        ("pwscup2015", "0006_value_ranges_published_rows"),
    ]

    operations = [migrations.RunPython(create_trigger, drop_trigger)]
