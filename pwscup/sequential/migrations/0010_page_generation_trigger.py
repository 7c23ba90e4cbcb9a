"""The round's row counts toward the page generation (``accounts.PageGeneration``,
``RoundKind.counted_row``): it comes with the round's cached access, so a write to it (a
freeze, a publication, a settings change) moves the generation as the core's tables do."""

from django.db import migrations

from pwscup.accounts.counted_tables import counted_table


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0007_page_generation"),
        ("sequential", "0009_round_upload_limits"),
    ]

    operations = [counted_table("sequential", "SequentialRound")]
