"""An estimate's job state is the core's (``JobState``): a valid estimate is stored as
FINISHED, the one vocabulary of every job ("valid" stays the DP pages' word for it)."""

from django.db import migrations, models


def valid_to_finished(apps, schema_editor):
    db = schema_editor.connection.alias
    Estimate = apps.get_model("dp", "Estimate")
    Estimate.objects.using(db).filter(status="valid").update(status="finished")


def finished_to_valid(apps, schema_editor):
    db = schema_editor.connection.alias
    Estimate = apps.get_model("dp", "Estimate")
    Estimate.objects.using(db).filter(status="finished").update(status="valid")


class Migration(migrations.Migration):

    dependencies = [
        ('dp', '0004_estimate_kept_upload'),
    ]

    operations = [
        migrations.AlterField(
            model_name='estimate',
            name='status',
            field=models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('finished', 'Finished'), ('failed', 'Failed')], db_index=True, default='queued', max_length=10),
        ),
        migrations.RunPython(valid_to_finished, finished_to_valid, elidable=True),
    ]
