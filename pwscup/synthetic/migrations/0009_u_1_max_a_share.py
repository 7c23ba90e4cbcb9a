"""A synthetic round's ``gates.u_1_max`` is a share (0 to 1) now, as ``U_1`` is: a stored
bound outside it is brought to its nearest end, which ranks the same releases (``U_1`` is
never below 0 nor above 1; a bound below 0 ranked none, and 0 ranks only a release whose
every column's distribution is its members'), so that the round's settings still read."""

from django.db import migrations


def bound_u_1_max(apps, schema_editor):
    Round = apps.get_model("competitions", "Round")
    for round_ in Round.objects.using(schema_editor.connection.alias).filter(kind="synthetic"):
        gates = round_.config.get("gates") if isinstance(round_.config, dict) else None
        value = gates.get("u_1_max") if isinstance(gates, dict) else None
        if isinstance(value, bool) or not isinstance(value, int | float) or 0 <= value <= 1:
            continue
        gates["u_1_max"] = min(max(float(value), 0.0), 1.0)
        round_.save(update_fields=["config"])


class Migration(migrations.Migration):
    dependencies = [
        ("synthetic", "0008_voided_uploads"),
        ("competitions", "0031_audit_uploads_voided"),
    ]

    operations = [migrations.RunPython(bound_u_1_max, migrations.RunPython.noop)]
