"""A target's built-in attacks become a job row of their own (``BuiltinAttack``, one per
target, its primary key the target's) with the core's job fields: every ``builtin_*``
value of every target is copied to its row before the columns are removed."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


# Target column → BuiltinAttack field.
COPIED = {
    "builtin_status": "status",
    "builtin_queued_at": "queued_at",
    "builtin_started_at": "started_at",
    "builtin_task_id": "task_id",
    "builtin_worker": "worker",
    "builtin_attempts": "attempts",
    "builtin_message": "message",
    "builtin_message_code": "message_code",
    "builtin_message_params": "message_params",
    "builtin_rates": "rates",
    "scorer_version": "scorer_version",
}


def targets_to_rows(apps, schema_editor):
    db = schema_editor.connection.alias
    Target = apps.get_model("pwscup2015", "Target")
    BuiltinAttack = apps.get_model("pwscup2015", "BuiltinAttack")
    rows = [
        BuiltinAttack(target_id=values.pop("pk"), **{COPIED[k]: v for k, v in values.items()})
        for values in Target.objects.using(db).order_by("pk").values("pk", *COPIED).iterator()
    ]
    BuiltinAttack.objects.using(db).bulk_create(rows, batch_size=500)


def rows_to_targets(apps, schema_editor):
    db = schema_editor.connection.alias
    Target = apps.get_model("pwscup2015", "Target")
    BuiltinAttack = apps.get_model("pwscup2015", "BuiltinAttack")
    back = {field: column for column, field in COPIED.items()}
    for values in BuiltinAttack.objects.using(db).values("target_id", *back).iterator():
        Target.objects.using(db).filter(pk=values.pop("target_id")).update(
            **{back[k]: v for k, v in values.items()}
        )


class Migration(migrations.Migration):

    dependencies = [
        ('pwscup2015', '0003_round_settings'),
    ]

    operations = [
        migrations.CreateModel(
            name='BuiltinAttack',
            fields=[
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('finished', 'Finished'), ('failed', 'Failed')], db_index=True, default='queued', max_length=10)),
                ('queued_at', models.DateTimeField(default=django.utils.timezone.now)),
                ('started_at', models.DateTimeField(blank=True, null=True)),
                ('finished_at', models.DateTimeField(blank=True, null=True)),
                ('task_id', models.CharField(blank=True, max_length=64)),
                ('worker', models.CharField(blank=True, max_length=255)),
                ('attempts', models.PositiveSmallIntegerField(default=0)),
                ('message', models.TextField(blank=True)),
                ('message_code', models.CharField(blank=True, max_length=64)),
                ('message_params', models.JSONField(blank=True, default=dict)),
                ('target', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, primary_key=True, related_name='builtin', serialize=False, to='pwscup2015.target')),
                ('rates', models.JSONField(blank=True, default=dict)),
                ('scorer_version', models.CharField(blank=True, max_length=32)),
            ],
            options={
                'verbose_name': 'built-in attacks',
                'verbose_name_plural': 'built-in attacks',
            },
        ),
        migrations.RunPython(targets_to_rows, rows_to_targets, elidable=True),
        migrations.RemoveField(
            model_name='target',
            name='builtin_attempts',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_message',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_message_code',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_message_params',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_queued_at',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_rates',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_started_at',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_status',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_task_id',
        ),
        migrations.RemoveField(
            model_name='target',
            name='builtin_worker',
        ),
        migrations.RemoveField(
            model_name='target',
            name='scorer_version',
        ),
    ]
