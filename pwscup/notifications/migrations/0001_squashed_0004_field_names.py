"""Every migration of the app up to 0004_field_names, as one (a database made anew runs
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

    replaces = [('notifications', '0001_initial'), ('notifications', '0002_notification_release_kinds'), ('notifications', '0003_submission_checked_kind'), ('notifications', '0004_field_names')]

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='NotificationPreference',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('email_enabled', models.BooleanField(default=False, verbose_name='also send notifications by e-mail')),
                ('language', models.CharField(blank=True, default='', max_length=8, verbose_name='language')),
                ('user', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='notification_preference', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'notification preference',
                'verbose_name_plural': 'notification preferences',
            },
        ),
        migrations.CreateModel(
            name='Notification',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('kind', models.CharField(choices=[('submission_finished', 'A submission was scored'), ('submission_failed', 'A submission failed'), ('submission_checked', 'A submission was checked'), ('round_frozen', 'A round froze: targets published'), ('results_published', 'Results published'), ('release_frozen', 'A release froze: the next one is open'), ('sequence_scored', 'A release froze: the sequences are scored')], max_length=32, verbose_name='kind')),
                ('params', models.JSONField(blank=True, default=dict, verbose_name='message parameters')),
                ('url', models.CharField(blank=True, max_length=500, verbose_name='link')),
                ('event', models.CharField(max_length=200, verbose_name='event')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='created')),
                ('read_at', models.DateTimeField(blank=True, null=True, verbose_name='read at')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='notifications', to=settings.AUTH_USER_MODEL, verbose_name='account')),
            ],
            options={
                'verbose_name': 'notification',
                'verbose_name_plural': 'notifications',
                'ordering': ['-created_at', '-id'],
                'indexes': [models.Index(condition=models.Q(('read_at__isnull', True)), fields=['user'], name='notification_unread')],
                'constraints': [models.UniqueConstraint(fields=('user', 'event'), name='one_notification_per_event')],
            },
        ),
    ]
