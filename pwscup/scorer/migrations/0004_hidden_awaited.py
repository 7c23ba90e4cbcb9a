from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scorer", "0003_pack_choice"),
    ]

    operations = [
        migrations.AddField(
            model_name="scorerround",
            name="hidden_awaited",
            field=models.JSONField(blank=True, default=list, verbose_name="hidden data awaited"),
        ),
    ]
