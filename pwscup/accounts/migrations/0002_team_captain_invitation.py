import secrets

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models

import pwscup.accounts.models


def new_invitation_code():
    """``pwscup.accounts.models.new_invitation_code`` as it was when this migration was
    written, kept here: a data migration runs the code of its own time."""
    return secrets.token_urlsafe(16)


def give_each_team_its_code(apps, schema_editor):
    db = schema_editor.connection.alias
    Team = apps.get_model("accounts", "Team")
    for team in Team.objects.using(db).all():
        team.invitation_code = new_invitation_code()
        team.save(update_fields=["invitation_code"])


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0001_initial'),
        ('competitions', '0002_competition_team_settings'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name='team',
            name='captain',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='captained_teams', to=settings.AUTH_USER_MODEL, verbose_name='captain'),
        ),
        migrations.AddField(
            model_name='team',
            name='created_at',
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.AddField(
            model_name='membership',
            name='joined_at',
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        # Existing teams each get their own code before the column becomes unique.
        migrations.AddField(
            model_name='team',
            name='invitation_code',
            field=models.CharField(default='', max_length=32, verbose_name='invitation code'),
            preserve_default=False,
        ),
        migrations.RunPython(give_each_team_its_code, migrations.RunPython.noop),
        migrations.AlterField(
            model_name='team',
            name='invitation_code',
            field=models.CharField(default=pwscup.accounts.models.new_invitation_code, max_length=32, unique=True, verbose_name='invitation code'),
        ),
    ]
