"""``Round`` keeps only what every kind has: the 2015 game's settings and state were copied
to ``pwscup2015.Pwscup2015Round`` by ``pwscup2015.0003``; the old columns go."""

from django.db import migrations, models

import pwscup.competitions.models

FIELDS = (
    "data_mode",
    "sample_size",
    "decoy_count",
    "secret_seed",
    "utility_gates",
    "tie_break_metric",
    "ranking_rule",
    "selection_rule",
    "attack_visibility",
    "auto_freeze",
    "results_published",
    "frozen_at",
)


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0006_audit_entry_table_renamed"),
        ("pwscup2015", "0003_round_settings"),
    ]

    operations = [
        *(migrations.RemoveField(model_name="round", name=name) for name in FIELDS),
        migrations.AlterField(
            model_name="round",
            name="original_file",
            field=models.FileField(
                help_text="The table the round is played on (a kind may draw samples from it).",
                upload_to=pwscup.competitions.models.private_upload_path,
                verbose_name="original table (CSV)",
            ),
        ),
    ]
