"""Every migration of the app up to 0008_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows).
"""

import django.db.models.deletion
import django.utils.timezone
import pwscup.core.time_zones
import pwscup.presentations.models
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('presentations', '0001_initial'), ('presentations', '0002_slides_shared_status'), ('presentations', '0003_slides_kept_upload'), ('presentations', '0004_window_upload_window'), ('presentations', '0002_window_time_zone_setting'), ('presentations', '0005_merge_upload_window_and_time_zone'), ('presentations', '0006_window_planned_window'), ('presentations', '0007_names_only'), ('presentations', '0008_field_names')]

    dependencies = [
        ('accounts', '0005_disqualification_reason_bounded_squashed_0010_field_names'),
        ('competitions', '0008_audit_actions_issue25_squashed_0024_field_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='PresentationWindow',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('opens_at', models.DateTimeField(verbose_name='opens at')),
                ('closes_at', models.DateTimeField(verbose_name='closes at')),
                ('planned_opens_at', models.DateTimeField(blank=True, null=True, verbose_name='planned to open at')),
                ('planned_closes_at', models.DateTimeField(blank=True, null=True, verbose_name='planned to close at')),
                ('daily_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads per day')),
                ('total_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads in total')),
                ('title', models.CharField(blank=True, max_length=200, verbose_name='title')),
                ('time_zone', models.CharField(default=pwscup.core.time_zones.default_time_zone, max_length=64, verbose_name='time zone')),
                ('max_bytes', models.PositiveBigIntegerField(default=pwscup.presentations.models.slides_max_bytes_default, verbose_name='largest PDF (bytes)')),
                ('published_at', models.DateTimeField(blank=True, null=True, verbose_name='published at')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False, verbose_name='created')),
                ('competition', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='presentation_windows', to='competitions.competition', verbose_name='competition')),
                ('published_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='published by')),
                ('round', models.ForeignKey(blank=True, help_text='Empty: the presentations of the whole competition.', null=True, on_delete=django.db.models.deletion.CASCADE, related_name='presentation_windows', to='competitions.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 'presentation window',
                'verbose_name_plural': 'presentation windows',
                'ordering': ['competition', 'id'],
            },
        ),
        migrations.CreateModel(
            name='Slides',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('status', models.CharField(choices=[('queued', 'Queued'), ('running', 'Running'), ('finished', 'Finished'), ('failed', 'Failed')], db_index=True, default='queued', max_length=10, verbose_name='status')),
                ('queued_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='queued at')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('task_id', models.CharField(blank=True, max_length=64, verbose_name='task ID')),
                ('worker', models.CharField(blank=True, max_length=255, verbose_name='worker')),
                ('attempts', models.PositiveSmallIntegerField(default=0, verbose_name='attempts')),
                ('message', models.TextField(blank=True, verbose_name='message')),
                ('message_code', models.CharField(blank=True, max_length=64, verbose_name='message code')),
                ('message_params', models.JSONField(blank=True, default=dict, verbose_name='message parameters')),
                ('file', models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path, verbose_name='file')),
                ('original_filename', models.CharField(blank=True, max_length=255, verbose_name='file name')),
                ('sha256', models.CharField(blank=True, max_length=64, verbose_name='SHA-256')),
                ('size', models.PositiveBigIntegerField(default=0, verbose_name='size (bytes)')),
                ('number', models.PositiveIntegerField(default=0, verbose_name='number in the team')),
                ('note', models.CharField(blank=True, max_length=200, verbose_name='note')),
                ('created_at', models.DateTimeField(db_index=True, default=django.utils.timezone.now, verbose_name='uploaded at')),
                ('anonymization_policy', models.TextField(blank=True, max_length=4000, verbose_name='anonymization policy')),
                ('attack_policy', models.TextField(blank=True, max_length=4000, verbose_name='attack policy')),
                ('preview', models.FileField(blank=True, max_length=300, upload_to=pwscup.presentations.models.preview_path, verbose_name='preview')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('window', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='slides', to='presentations.presentationwindow', verbose_name='presentation window')),
            ],
            options={
                'verbose_name': 'slides',
                'verbose_name_plural': 'slides',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
        ),
        migrations.AddConstraint(
            model_name='presentationwindow',
            constraint=models.UniqueConstraint(fields=('competition', 'round'), name='one_presentation_window_per_round'),
        ),
        migrations.AddConstraint(
            model_name='presentationwindow',
            constraint=models.UniqueConstraint(condition=models.Q(('round__isnull', True)), fields=('competition',), name='one_competition_wide_presentation_window'),
        ),
        migrations.AddIndex(
            model_name='slides',
            index=models.Index(fields=['window', 'team', 'status'], name='presentatio_window__4b0107_idx'),
        ),
    ]
