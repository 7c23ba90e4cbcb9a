import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0019_phase_target_limit"),
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="DataChoice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("key", models.SlugField(max_length=32, verbose_name="key")),
                ("label", models.CharField(max_length=200, verbose_name="label (English)")),
                (
                    "label_ja",
                    models.CharField(blank=True, max_length=200, verbose_name="label (Japanese)"),
                ),
                ("order", models.PositiveIntegerField(default=1, verbose_name="order")),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="data_choices",
                        to="competitions.round",
                        verbose_name="round",
                    ),
                ),
            ],
            options={
                "verbose_name": "data choice",
                "verbose_name_plural": "data choices",
                "ordering": ["round", "order", "id"],
                "unique_together": {("round", "key")},
            },
        ),
        migrations.CreateModel(
            name="TeamDataChoice",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("chosen_at", models.DateTimeField(verbose_name="chosen at")),
                ("locked", models.BooleanField(default=False, verbose_name="locked")),
                (
                    "choice",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="picks",
                        to="competitions.datachoice",
                        verbose_name="data choice",
                    ),
                ),
                (
                    "chosen_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="competitions.round",
                        verbose_name="round",
                    ),
                ),
                (
                    "team",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="accounts.team",
                        verbose_name="team",
                    ),
                ),
            ],
            options={
                "verbose_name": "team's data choice",
                "verbose_name_plural": "teams' data choices",
                "unique_together": {("round", "team")},
            },
        ),
    ]
