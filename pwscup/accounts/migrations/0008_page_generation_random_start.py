"""The page generation's sequence moved forward by a random step (PostgreSQL).

A database made anew (dropped and migrated again) would otherwise count its generations from
1 again, the values a cache filled from the previous database holds its entries under (the
round pages' cached access, kept pages): those would be read for the new database's rows. A
random step of up to 2**40 makes a new database's values ones no other database gave, and
moving forward keeps this database's own values new. SQLite's values are random already.
"""

from django.db import migrations

SEQUENCE = "pwscup_page_generation_seq"


def forward(apps, schema_editor):
    if schema_editor.connection.vendor != "postgresql":
        return
    schema_editor.execute(
        f"SELECT setval('{SEQUENCE}', (SELECT last_value FROM {SEQUENCE}) "
        "+ 1 + floor(random() * 1099511627776)::bigint)"
    )


class Migration(migrations.Migration):

    dependencies = [("accounts", "0007_page_generation")]

    operations = [migrations.RunPython(forward, migrations.RunPython.noop)]
