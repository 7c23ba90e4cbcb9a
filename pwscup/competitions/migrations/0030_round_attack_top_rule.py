"""How a round's attack score against the top N releases is read (``Round.attack_top_by``,
``attack_top_own``, ``attack_top_combine``; the defaults are the rule before them).

On SQLite, adding a column that is not null rebuilds the round table (Django's SQLite schema
editor remakes it), and SQLite drops the table's page-generation triggers with it
(``accounts/migrations/0007_page_generation.py``): its writes would no longer move the page
generation, and every cached access and kept page of a round would stay as it was.
``triggers_again`` makes them again, after the columns are added and, when the migration is
reversed, after they are removed. PostgreSQL alters the table in place and keeps its
trigger. (The SQL is 0007's, written here as that migration writes it: a migration keeps
what it did.)"""

from django.db import migrations, models

EVENTS = ("INSERT", "UPDATE", "DELETE")
SQLITE_UPSERT = (
    "INSERT INTO accounts_pagegeneration (id, value) VALUES (1, (random() & 9007199254740991)) "
    "ON CONFLICT (id) DO UPDATE SET value = excluded.value"
)


def triggers_again(apps, schema_editor):
    if schema_editor.connection.vendor != "sqlite":
        return
    table = apps.get_model("competitions", "Round")._meta.db_table
    for event in EVENTS:
        trigger = f"pwscup_page_generation_{event.lower()}_{table}"
        schema_editor.execute(f"DROP TRIGGER IF EXISTS {trigger}")
        schema_editor.execute(
            f'CREATE TRIGGER {trigger} BEFORE {event} ON "{table}" BEGIN {SQLITE_UPSERT}; END'
        )


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0029_standings_counted_divisions'),
        # The triggers made again here are made first by the accounts' migration.
        ('accounts', '0010_field_names'),
    ]

    operations = [
        # Reversed, this runs last: after the columns are removed.
        migrations.RunPython(migrations.RunPython.noop, triggers_again),
        migrations.AddField(
            model_name='round',
            name='attack_top_by',
            field=models.CharField(choices=[('release', 'the release ranking'), ('total', "the round's total")], default='release', max_length=16, verbose_name='top N by'),
        ),
        migrations.AddField(
            model_name='round',
            name='attack_top_combine',
            field=models.CharField(choices=[('mean', 'the mean'), ('sum', 'the sum')], default='mean', max_length=16, verbose_name='combined as'),
        ),
        migrations.AddField(
            model_name='round',
            name='attack_top_own',
            field=models.CharField(choices=[('left_out', 'left out'), ('best_other', "the best other attacker's score")], default='left_out', max_length=16, verbose_name="the attacker's own release"),
        ),
        migrations.RunPython(triggers_again, migrations.RunPython.noop),
    ]
