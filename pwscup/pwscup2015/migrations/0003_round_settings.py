"""The 2015 game's settings and state move from ``Round`` to ``Pwscup2015Round``.

The model is created here and filled from every round of the 2015 game (values copied as
they are, the secret seed included, so that samples and permutations stay the same);
``competitions.0007`` then drops the old columns. Backwards, the values are copied back
before the columns are dropped from here.
"""

import django.db.models.deletion
from django.db import migrations, models

import pwscup.pwscup2015.models

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


def copy_to_game(apps, schema_editor):
    db = schema_editor.connection.alias
    Round = apps.get_model("competitions", "Round")
    Pwscup2015Round = apps.get_model("pwscup2015", "Pwscup2015Round")
    Pwscup2015Round.objects.using(db).bulk_create(
        Pwscup2015Round(round_id=values.pop("pk"), **values)
        for values in Round.objects.using(db).filter(kind="pwscup2015").values("pk", *FIELDS)
    )


def copy_to_round(apps, schema_editor):
    db = schema_editor.connection.alias
    Round = apps.get_model("competitions", "Round")
    Pwscup2015Round = apps.get_model("pwscup2015", "Pwscup2015Round")
    for values in Pwscup2015Round.objects.using(db).values("round_id", *FIELDS):
        Round.objects.using(db).filter(pk=values.pop("round_id")).update(**values)


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0006_audit_entry_table_renamed"),
        ("pwscup2015", "0002_tables_renamed"),
    ]

    operations = [
        migrations.CreateModel(
            name="Pwscup2015Round",
            fields=[
                (
                    "round",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="pwscup2015",
                        serialize=False,
                        to="competitions.round",
                        verbose_name="round",
                    ),
                ),
                (
                    "data_mode",
                    models.CharField(
                        choices=[
                            ("shared", "Shared original (every team anonymizes the same table)"),
                            ("per_team", "Per-team sample with candidate tables"),
                        ],
                        default="shared",
                        max_length=16,
                        verbose_name="data mode",
                    ),
                ),
                (
                    "sample_size",
                    models.PositiveIntegerField(
                        blank=True, null=True, verbose_name="sample size per team"
                    ),
                ),
                (
                    "decoy_count",
                    models.PositiveIntegerField(
                        blank=True, null=True, verbose_name="decoys per candidate table"
                    ),
                ),
                (
                    "secret_seed",
                    models.BigIntegerField(
                        default=pwscup.pwscup2015.models.new_secret_seed, editable=False
                    ),
                ),
                (
                    "utility_gates",
                    models.JSONField(
                        blank=True,
                        default=dict,
                        help_text=(
                            "Upper bounds a submission must meet to be ranked, "
                            'e.g. {"U1": 100, "U4": 0.05}.'
                        ),
                        verbose_name="utility gates",
                    ),
                ),
                (
                    "tie_break_metric",
                    models.CharField(default="U1", max_length=8, verbose_name="tie-break metric"),
                ),
                (
                    "ranking_rule",
                    models.CharField(
                        choices=[
                            ("worst_attack", "Lowest worst-case re-identification rate"),
                            ("mean_attack", "Lowest mean re-identification rate"),
                        ],
                        default="worst_attack",
                        max_length=16,
                        verbose_name="ranking rule",
                    ),
                ),
                (
                    "selection_rule",
                    models.CharField(
                        choices=[
                            ("selected_or_last", "Selected submission, else the last valid one"),
                            ("best", "Best valid submission"),
                        ],
                        default="selected_or_last",
                        max_length=20,
                        verbose_name="which submission represents a team",
                    ),
                ),
                (
                    "attack_visibility",
                    models.CharField(
                        choices=[
                            ("live", "Live: a team sees its own rates as soon as they are scored"),
                            ("after_phase", "After the attack phase has closed"),
                            ("on_publish", "Only when the organizer publishes the results"),
                        ],
                        default="live",
                        max_length=16,
                        verbose_name="attack rates visible to the attacker",
                    ),
                ),
                (
                    "auto_freeze",
                    models.BooleanField(
                        default=True,
                        verbose_name="freeze automatically when the anonymization phase closes",
                    ),
                ),
                (
                    "results_published",
                    models.BooleanField(
                        default=False,
                        help_text="Everyone sees the attack matrix and the final ranking.",
                        verbose_name="results published",
                    ),
                ),
                (
                    "frozen_at",
                    models.DateTimeField(
                        blank=True, editable=False, null=True, verbose_name="frozen at"
                    ),
                ),
            ],
            options={
                "verbose_name": "PWSCup 2015 round settings",
                "verbose_name_plural": "PWSCup 2015 round settings",
            },
        ),
        migrations.RunPython(copy_to_game, copy_to_round),
    ]
