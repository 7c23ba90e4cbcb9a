"""Every migration of the app up to 0014_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows); the kind's round
table is counted toward the page generation as the old ones did.
"""

import django.db.models.deletion
import pwscup.accounts.counted_tables
import django.utils.timezone
import pwscup.sequential.models
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('sequential', '0001_initial'), ('sequential', '0002_config_text'), ('sequential', '0003_release_job'), ('sequential', '0004_step_windows_quotas'), ('sequential', '0005_kept_uploads'), ('sequential', '0006_organizer_csv_sources'), ('sequential', '0007_shared_job_status'), ('sequential', '0008_team_upload_kept_upload'), ('sequential', '0009_round_upload_limits'), ('sequential', '0010_page_generation_trigger'), ('sequential', '0011_alter_seqattack_options'), ('sequential', '0012_attack_limits'), ('sequential', '0013_names_only'), ('sequential', '0014_field_names')]

    dependencies = [
        ('accounts', '0005_disqualification_reason_bounded_squashed_0010_field_names'),
        ('competitions', '0008_audit_actions_issue25_squashed_0024_field_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SeqTarget',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('files', models.JSONField(default=dict, help_text='published file name → CSV text', verbose_name='published files')),
                ('map_n', models.FloatField(null=True, verbose_name='accuracy of the built-in MAP_N attacker')),
                ('map_a', models.FloatField(null=True, verbose_name='accuracy of the built-in MAP_A attacker')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
            ],
        ),
        migrations.CreateModel(
            name='SeqAttack',
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
                ('accuracy', models.FloatField(null=True, verbose_name='accuracy')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('target', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='attacks', to='sequential.seqtarget', verbose_name='target')),
            ],
            options={
                'verbose_name': 'attack',
                'verbose_name_plural': 'attacks',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='SequentialRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('daily_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads per day')),
                ('total_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads in total')),
                ('config_text', models.TextField(default='{}', verbose_name='configuration')),
                ('pool_file', models.FileField(blank=True, upload_to=pwscup.sequential.models.private_path, verbose_name='pool of persons (CSV)')),
                ('pool_source', models.FileField(blank=True, editable=False, upload_to=pwscup.sequential.models.private_path, verbose_name='pool of persons as uploaded')),
                ('pool_encoding', models.CharField(blank=True, editable=False, max_length=32, verbose_name='pool converted from')),
                ('secret_seed', models.BigIntegerField(default=pwscup.sequential.models._new_seed, editable=False, verbose_name='secret seed')),
                ('frozen_steps', models.PositiveSmallIntegerField(default=0, help_text='Releases 1 … this number are frozen.', verbose_name='frozen steps')),
                ('results_published', models.BooleanField(default=False, verbose_name='results published')),
                ('step_closes', models.JSONField(blank=True, default=list, help_text='Uploads of release j are refused from its close; empty: no deadline.', verbose_name='close of each release')),
                ('auto_freeze', models.BooleanField(default=True, verbose_name='freeze each release automatically at its close')),
                ('attack_daily_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='attacks per team per day')),
                ('attack_total_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='attacks per team in total')),
                ('attack_target_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='attacks per team per target')),
                ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='sequential', to='competitions.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 'sequential round',
                'verbose_name_plural': 'sequential rounds',
            },
        ),
        migrations.AddField(
            model_name='seqtarget',
            name='sequential',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='targets', to='sequential.sequentialround', verbose_name='round'),
        ),
        migrations.CreateModel(
            name='Release',
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
                ('step', models.PositiveSmallIntegerField(verbose_name='release')),
                ('results', models.JSONField(blank=True, default=dict, verbose_name='results')),
                ('per_person', models.TextField(blank=True, help_text='risk_per_person.csv over 1 … step', verbose_name='risk per person')),
                ('elapsed_ms', models.PositiveIntegerField(default=0, verbose_name='time taken (ms)')),
                ('is_frozen', models.BooleanField(default=False, verbose_name='frozen')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('sequential', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='releases', to='sequential.sequentialround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'release',
                'verbose_name_plural': 'releases',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='Master',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('file', models.FileField(upload_to=pwscup.sequential.models.private_path, verbose_name='master table (CSV)')),
                ('source', models.FileField(blank=True, editable=False, upload_to=pwscup.sequential.models.private_path, verbose_name='master table as uploaded')),
                ('source_encoding', models.CharField(blank=True, editable=False, max_length=32, verbose_name='converted from')),
                ('sha256', models.CharField(blank=True, max_length=64, verbose_name='SHA-256')),
                ('persons', models.PositiveIntegerField(default=0, verbose_name='people')),
                ('drawn', models.BooleanField(default=False, help_text='Drawn from the pool by the platform.', verbose_name='drawn from the pool')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='created')),
                ('team', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('sequential', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='masters', to='sequential.sequentialround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'master table',
                'verbose_name_plural': 'master tables',
            },
        ),
        migrations.CreateModel(
            name='SequenceScore',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('step', models.PositiveSmallIntegerField(verbose_name='last release scored')),
                ('complete', models.BooleanField(default=False, verbose_name='complete sequence')),
                ('results', models.JSONField(blank=True, default=dict, verbose_name='results')),
                ('per_person', models.TextField(blank=True, verbose_name='risk per person')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='scored at')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('sequential', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='scores', to='sequential.sequentialround', verbose_name='round')),
            ],
            options={
                'constraints': [models.UniqueConstraint(fields=('sequential', 'team', 'step'), name='seq_score_one_per_step')],
            },
        ),
        migrations.AddConstraint(
            model_name='seqtarget',
            constraint=models.UniqueConstraint(fields=('sequential', 'team'), name='seq_target_one_per_team'),
        ),
        migrations.AddIndex(
            model_name='release',
            index=models.Index(fields=['sequential', 'team', 'step'], name='sequential__sequent_0e77eb_idx'),
        ),
        migrations.AddConstraint(
            model_name='master',
            constraint=models.UniqueConstraint(fields=('sequential', 'team'), name='seq_master_one_per_team'),
        ),
        migrations.AddConstraint(
            model_name='master',
            constraint=models.UniqueConstraint(condition=models.Q(('team__isnull', True)), fields=('sequential',), name='seq_master_one_shared'),
        ),
        pwscup.accounts.counted_tables.CountedTable(
            app_label='sequential',
            model_name='SequentialRound',
        ),
    ]
