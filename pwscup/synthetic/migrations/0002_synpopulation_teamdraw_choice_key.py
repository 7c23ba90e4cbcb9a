# Hand-written: the population of each data pack (issue 50, point 4) and the pack a team's
# draw comes from.

import django.db.models.deletion
import pwscup.competitions.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("synthetic", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="teamdraw",
            name="choice_key",
            field=models.CharField(blank=True, default="", max_length=32),
        ),
        migrations.CreateModel(
            name="SynPopulation",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("choice_key", models.CharField(max_length=32, verbose_name="data pack")),
                (
                    "file",
                    models.FileField(upload_to=pwscup.competitions.models.private_upload_path),
                ),
                (
                    "source",
                    models.FileField(
                        blank=True, upload_to=pwscup.competitions.models.private_upload_path
                    ),
                ),
                ("encoding", models.CharField(blank=True, max_length=32)),
                ("filename", models.CharField(blank=True, max_length=255)),
                ("sha256", models.CharField(max_length=64)),
                ("rows", models.PositiveIntegerField(default=0)),
                ("holdout", models.JSONField(default=list, editable=False)),
                ("aux", models.JSONField(default=list, editable=False)),
                ("uploaded_at", models.DateTimeField(auto_now_add=True)),
                (
                    "synthetic",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="populations",
                        to="synthetic.syntheticround",
                    ),
                ),
            ],
            options={
                "verbose_name": "population",
                "verbose_name_plural": "populations",
                "ordering": ["synthetic", "choice_key"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("synthetic", "choice_key"), name="syn_population_one_per_pack"
                    )
                ],
            },
        ),
    ]
