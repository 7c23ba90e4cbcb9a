"""The 2015 round's row counts toward the page generation (``accounts.PageGeneration``):
its pages are kept (``RoundKind.counted_row``) and show its settings and state, so a write
to it (a freeze, a publication, a settings change) moves the generation as the core's
tables do (``accounts/migrations/0007_page_generation.py``, whose function it calls)."""

from django.db import migrations

from pwscup.accounts.counted_tables import counted_table


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_page_generation"),
        ("pwscup2015", "0006_value_ranges_published_rows"),
    ]

    operations = [counted_table("pwscup2015", "Pwscup2015Round")]
