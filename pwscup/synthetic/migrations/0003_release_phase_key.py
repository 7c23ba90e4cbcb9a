"""A synthetic round's release phase keeps the game's own key, ``release`` (it was stored
under the first game's ``anonymization``). Every phase row is kept; only its key changes,
and back on a reverse migration."""

from django.db import migrations

KIND = "synthetic"


def to_release(apps, schema_editor):
    db = schema_editor.connection.alias
    Phase = apps.get_model("competitions", "Phase")
    Phase.objects.using(db).filter(round__kind=KIND, kind="anonymization").update(kind="release")


def to_anonymization(apps, schema_editor):
    db = schema_editor.connection.alias
    Phase = apps.get_model("competitions", "Phase")
    Phase.objects.using(db).filter(round__kind=KIND, kind="release").update(kind="anonymization")


class Migration(migrations.Migration):
    dependencies = [
        ("synthetic", "0002_synpopulation_teamdraw_choice_key"),
        ("competitions", "0022_phase_kind_any_key"),
    ]

    operations = [migrations.RunPython(to_release, to_anonymization, elidable=True)]
