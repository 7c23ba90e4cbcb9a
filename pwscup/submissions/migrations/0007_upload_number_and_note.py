# Each upload gets the team's own number in its phase (#1, #2, …) and an optional note.
# Existing uploads are numbered in the order they were made (created_at, then id).

from django.db import migrations, models
from django.db.models import F, Window
from django.db.models.functions import RowNumber


def number_existing_uploads(apps, schema_editor):
    db = schema_editor.connection.alias
    for name in ("AnonymizationSubmission", "AttackSubmission"):
        model = apps.get_model("submissions", name)
        numbered = model.objects.using(db).annotate(
            position=Window(
                RowNumber(),
                partition_by=[F("phase_id"), F("team_id")],
                order_by=[F("created_at").asc(), F("id").asc()],
            )
        ).values_list("pk", "position")
        updates = [model(pk=pk, number=position) for pk, position in numbered]
        model.objects.using(db).bulk_update(updates, ["number"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0006_round_operation"),
    ]

    operations = [
        migrations.AddField(
            model_name="anonymizationsubmission",
            name="note",
            field=models.CharField(blank=True, max_length=200, verbose_name="note"),
        ),
        migrations.AddField(
            model_name="anonymizationsubmission",
            name="number",
            field=models.PositiveIntegerField(default=0, verbose_name="number in the team"),
        ),
        migrations.AddField(
            model_name="attacksubmission",
            name="note",
            field=models.CharField(blank=True, max_length=200, verbose_name="note"),
        ),
        migrations.AddField(
            model_name="attacksubmission",
            name="number",
            field=models.PositiveIntegerField(default=0, verbose_name="number in the team"),
        ),
        migrations.RunPython(number_existing_uploads, migrations.RunPython.noop),
    ]
