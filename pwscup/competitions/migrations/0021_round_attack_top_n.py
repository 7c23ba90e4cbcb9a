import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0020_data_choices"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="attack_top_n",
            field=models.PositiveSmallIntegerField(
                blank=True,
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(1),
                    django.core.validators.MaxValueValidator(1000),
                ],
                verbose_name="attack against the top N releases",
            ),
        ),
    ]
