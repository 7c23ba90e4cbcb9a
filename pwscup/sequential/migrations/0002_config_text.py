import json

from django.db import migrations, models


def copy_config(apps, schema_editor):
    db = schema_editor.connection.alias
    SequentialRound = apps.get_model("sequential", "SequentialRound")
    for row in SequentialRound.objects.using(db).all():
        row.config_text = json.dumps(row.config, ensure_ascii=False)
        row.save(update_fields=["config_text"])


class Migration(migrations.Migration):
    """The configuration as JSON text: PostgreSQL's jsonb reorders keys (and the order of the
    ``qi`` columns is the release header's order)."""

    dependencies = [
        ("sequential", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="sequentialround",
            name="config_text",
            field=models.TextField(default="{}", verbose_name="configuration"),
        ),
        migrations.RunPython(copy_config, migrations.RunPython.noop, elidable=True),
        migrations.RemoveField(
            model_name="sequentialround",
            name="config",
        ),
    ]
