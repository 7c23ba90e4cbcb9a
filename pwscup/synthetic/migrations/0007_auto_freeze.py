"""A synthetic round's automatic freeze at its release phase's close (``auto_freeze``) and the
reason it was refused (``auto_freeze_refusal``).

On SQLite, adding a column that is not null rebuilds the table (Django's SQLite schema editor
remakes it), and SQLite drops the table's page-generation triggers with it
(``accounts/migrations/0007_page_generation.py``): its writes would no longer move the page
generation, and the round's cached pages would stay as they were. ``triggers_again`` makes
them again, after the columns are added and, when the migration is reversed, after they are
removed. PostgreSQL alters the table in place and keeps its triggers. (The SQL is 0007's,
written here as that migration writes it: a migration keeps what it did.)"""

from django.db import migrations, models

EVENTS = ("INSERT", "UPDATE", "DELETE")
SQLITE_UPSERT = (
    "INSERT INTO accounts_pagegeneration (id, value) VALUES (1, (random() & 9007199254740991)) "
    "ON CONFLICT (id) DO UPDATE SET value = excluded.value"
)


def triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    table = apps.get_model("synthetic", "SyntheticRound")._meta.db_table
    for event in EVENTS:
        trigger = f"pwscup_page_generation_{event.lower()}_{table}"
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        schema_editor.execute(
            f'CREATE TRIGGER {trigger} BEFORE {event} ON "{table}" BEGIN {SQLITE_UPSERT}; END'
        )


class Migration(migrations.Migration):

    dependencies = [
        ('synthetic', '0001_squashed_0006_field_names'),
        # The triggers made again here are made first by the accounts' migration.
        ('accounts', '0010_field_names'),
    ]

    operations = [
        # Reversed, this runs last: after the columns are removed.
        migrations.RunPython(migrations.RunPython.noop, triggers_again),
        migrations.AddField(
            model_name='syntheticround',
            name='auto_freeze',
            field=models.BooleanField(default=False, help_text="At the release phase's close the platform freezes the releases, as the console's button does, once the releases uploaded before the close are scored.", verbose_name="freeze the releases automatically at the release phase's close"),
        ),
        migrations.AddField(
            model_name='syntheticround',
            name='auto_freeze_refusal',
            field=models.TextField(blank=True, editable=False, verbose_name='why the automatic freeze was refused'),
        ),
        migrations.RunPython(triggers_again, migrations.RunPython.noop),
    ]
