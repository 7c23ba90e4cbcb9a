"""A phase's key is its game's (``RoundKind.phase_labels``): no fixed choices, up to 32
characters. Every row keeps its key."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("competitions", "0021_round_attack_top_n")]

    operations = [
        migrations.AlterField(
            model_name="phase",
            name="kind",
            field=models.CharField(max_length=32, verbose_name="kind"),
        ),
    ]
