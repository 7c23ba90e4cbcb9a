from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0018_round_total_formula"),
    ]

    operations = [
        migrations.AddField(
            model_name="phase",
            name="target_limit",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="At most this many uploads per target per team in this phase. Empty: no limit.",
                null=True,
                verbose_name="uploads per target",
            ),
        ),
    ]
