"""Bind each token to its user's password (``ApiToken.password_hash``).

A data migration fills the column for every existing token from its user's current
password hash, so a token keeps working after the upgrade as long as the password has not
changed. Filling it at the token's first use instead would bind a token that was idle
across a password change to the new password: the hole this column closes. Tokens
revoked by the old rule stay revoked (``revoked_at``).
"""

from django.db import migrations, models
from django.utils.crypto import salted_hmac


def password_binding(password_hash):
    """``pwscup.api.models.password_binding`` as it was when this migration was written, kept
    here: a migration runs the code of its own time, never the models' code of today."""
    return salted_hmac(
        "pwscup.api.models.ApiToken.password_binding",
        password_hash,
        algorithm="sha256",
    ).hexdigest()


def bind_to_current_passwords(apps, schema_editor):
    db = schema_editor.connection.alias
    ApiToken = apps.get_model("api", "ApiToken")
    for token in ApiToken.objects.using(db).select_related("user").iterator():
        token.password_hash = password_binding(token.user.password)
        token.save(update_fields=["password_hash"])


class Migration(migrations.Migration):
    dependencies = [
        ("api", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="apitoken",
            name="password_hash",
            field=models.CharField(default="", editable=False, max_length=64),
            preserve_default=False,
        ),
        migrations.RunPython(bind_to_current_passwords, migrations.RunPython.noop, elidable=True),
    ]
