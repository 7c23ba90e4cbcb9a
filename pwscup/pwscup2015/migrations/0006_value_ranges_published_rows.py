"""Two round settings of the later editions: the range rule of a column (``value_ranges``)
and publishing a random sample of each target (``published_rows``)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("pwscup2015", "0005_kept_upload"),
    ]

    operations = [
        migrations.AddField(
            model_name="pwscup2015round",
            name="value_ranges",
            field=models.JSONField(
                blank=True,
                default=dict,
                help_text='Per column, the numbers a submission may write: {"age": {"min": 13, "max": 85}}.',
                verbose_name="value ranges",
            ),
        ),
        migrations.AddField(
            model_name="pwscup2015round",
            name="published_rows",
            field=models.PositiveIntegerField(
                blank=True,
                help_text="Empty: every kept row. A number: a random sample of that many rows.",
                null=True,
                verbose_name="published rows per target",
            ),
        ),
    ]
