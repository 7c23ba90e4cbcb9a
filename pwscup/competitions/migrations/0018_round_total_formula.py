from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("competitions", "0017_standings"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="total_formula",
            field=models.CharField(blank=True, max_length=500, verbose_name="total formula"),
        ),
    ]
