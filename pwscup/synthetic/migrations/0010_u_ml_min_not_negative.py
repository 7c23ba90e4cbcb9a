"""A synthetic round's ``gates.u_ml_min`` is a number ≥ 0 now: ``U_ML`` is never below 0, so
a stored bound below 0 gated nothing, as 0 does; it is brought to 0, which ranks the same
releases, so that the round's settings still read."""

from django.db import migrations


def u_ml_min_not_negative(apps, schema_editor):
    Round = apps.get_model("competitions", "Round")
    for round_ in Round.objects.using(schema_editor.connection.alias).filter(kind="synthetic"):
        gates = round_.config.get("gates") if isinstance(round_.config, dict) else None
        value = gates.get("u_ml_min") if isinstance(gates, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float) or value >= 0:
            continue
        gates["u_ml_min"] = 0.0
        round_.save(update_fields=["config"])


class Migration(migrations.Migration):
    dependencies = [("synthetic", "0009_u_1_max_a_share")]

    operations = [migrations.RunPython(u_ml_min_not_negative, migrations.RunPython.noop)]
