"""The page generation (``PageGeneration``) and the triggers that move it.

A trigger per counted table runs once per statement (PostgreSQL; once per row on SQLite,
which has no statement triggers), before the statement touches a row, and sets the one
row in the writing transaction: a reader sees the new value when it sees the new rows.

The new value is never one the row held before, even after a rollback (the cache may hold
what a rolled-back transaction read under its value): on PostgreSQL the next value of a
sequence (sequences do not roll back), on SQLite a random 53-bit number. Written as an
upsert: the row is made by the first counted write (a later data migration's, often), and
made again after a flush (tests); ``restore`` counts it among what ``migrate`` fills.
"""

from django.conf import settings
from django.db import migrations, models

FUNCTION = "pwscup_page_generation_bump"
TRIGGER = "pwscup_page_generation"
SEQUENCE = "pwscup_page_generation_seq"
NEXT = {"postgresql": f"nextval('{SEQUENCE}')", "sqlite": "(random() & 9007199254740991)"}


def upsert(vendor: str) -> str:
    return (
        f"INSERT INTO accounts_pagegeneration (id, value) VALUES (1, {NEXT[vendor]}) "
        "ON CONFLICT (id) DO UPDATE SET value = excluded.value"
    )


def counted_tables(apps) -> list[str]:
    user = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    competition = apps.get_model("competitions", "Competition")
    group = apps.get_model("auth", "Group")
    return [
        competition._meta.db_table,
        competition._meta.get_field("organizers").remote_field.through._meta.db_table,
        apps.get_model("competitions", "Round")._meta.db_table,
        apps.get_model("competitions", "Phase")._meta.db_table,
        apps.get_model("accounts", "Team")._meta.db_table,
        apps.get_model("accounts", "Membership")._meta.db_table,
        user._meta.get_field("groups").remote_field.through._meta.db_table,
        user._meta.get_field("user_permissions").remote_field.through._meta.db_table,
        group._meta.get_field("permissions").remote_field.through._meta.db_table,
    ]


def trigger_sql(vendor: str, table: str) -> list[str]:
    """The statements that count writes to ``table`` (the function exists on PostgreSQL)."""
    if vendor == "postgresql":
        return [
            f'CREATE TRIGGER {TRIGGER} BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON "{table}" '
            f"FOR EACH STATEMENT EXECUTE FUNCTION {FUNCTION}()"
        ]
    return [
        f'CREATE TRIGGER {TRIGGER}_{event.lower()}_{table} BEFORE {event} ON "{table}" '
        f"BEGIN {upsert(vendor)}; END"
        for event in ("INSERT", "UPDATE", "DELETE")
    ]


def drop_sql(vendor: str, table: str) -> list[str]:
    if vendor == "postgresql":
        return [f'DROP TRIGGER IF EXISTS {TRIGGER} ON "{table}"']
    return [
        f"DROP TRIGGER IF EXISTS {TRIGGER}_{event.lower()}_{table}"
        for event in ("INSERT", "UPDATE", "DELETE")
    ]


def create_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute(f"CREATE SEQUENCE IF NOT EXISTS {SEQUENCE}")
        schema_editor.execute(
            f"CREATE OR REPLACE FUNCTION {FUNCTION}() RETURNS trigger LANGUAGE plpgsql AS $$ "
            f"BEGIN {upsert(vendor)}; RETURN NULL; END $$"
        )
    for table in counted_tables(apps):
        for statement in trigger_sql(vendor, table):
            schema_editor.execute(statement)


def drop_triggers(apps, schema_editor):
    vendor = schema_editor.connection.vendor
    for table in counted_tables(apps):
        for statement in drop_sql(vendor, table):
            schema_editor.execute(statement)
    if vendor == "postgresql":
        schema_editor.execute(f"DROP FUNCTION IF EXISTS {FUNCTION}()")
        schema_editor.execute(f"DROP SEQUENCE IF EXISTS {SEQUENCE}")


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0006_award"),
        ("competitions", "0022_phase_kind_any_key"),
        ("auth", "0012_alter_user_first_name_max_length"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="PageGeneration",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("value", models.PositiveBigIntegerField(default=0)),
            ],
            options={
                "verbose_name": "page generation",
                "verbose_name_plural": "page generations",
            },
        ),
        migrations.RunPython(create_triggers, drop_triggers),
    ]
