"""Every migration of the app up to 0003_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows).
"""

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('api', '0001_initial'), ('api', '0002_apitoken_password_hash'), ('api', '0003_field_names')]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ApiToken',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=100, verbose_name='name')),
                ('prefix', models.CharField(editable=False, max_length=16, unique=True, verbose_name='prefix')),
                ('digest', models.CharField(editable=False, max_length=64, verbose_name='SHA-256 of the token')),
                ('password_hash', models.CharField(editable=False, max_length=64, verbose_name='password check')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False, verbose_name='created')),
                ('last_used_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='last used')),
                ('revoked_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='revoked at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='api_tokens', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'API token',
                'verbose_name_plural': 'API tokens',
                'ordering': ['-created_at', '-id'],
            },
        ),
    ]
