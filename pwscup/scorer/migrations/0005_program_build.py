import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorer", "0004_hidden_awaited"),
    ]

    operations = [
        migrations.CreateModel(
            name="ProgramBuild",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("host", models.CharField(max_length=255, verbose_name="host")),
                (
                    "state",
                    models.CharField(
                        choices=[
                            ("building", "Building"),
                            ("ready", "Ready"),
                            ("failed", "Build failed"),
                        ],
                        default="building",
                        max_length=10,
                    ),
                ),
                ("log", models.TextField(blank=True)),
                ("started_at", models.DateTimeField(blank=True, null=True)),
                ("finished_at", models.DateTimeField(blank=True, null=True)),
                (
                    "version",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="builds",
                        to="scorer.programversion",
                    ),
                ),
            ],
            options={
                "verbose_name": "program build on a host",
                "verbose_name_plural": "program builds on hosts",
                "ordering": ["host"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("version", "host"), name="scorer_build_one_per_host"
                    )
                ],
            },
        ),
    ]
