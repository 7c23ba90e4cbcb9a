"""Every migration of the app up to 0009_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows); the kind's round
table is counted toward the page generation as the old ones did.
"""

import django.db.models.deletion
import pwscup.accounts.counted_tables
import django.utils.timezone
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('scorer', '0001_initial'), ('scorer', '0002_ranking_run'), ('scorer', '0003_pack_choice'), ('scorer', '0004_hidden_awaited'), ('scorer', '0005_program_build'), ('scorer', '0006_release_phase_key'), ('scorer', '0007_page_generation_trigger'), ('scorer', '0008_names_only'), ('scorer', '0009_field_names')]

    dependencies = [
        ('accounts', '0005_disqualification_reason_bounded_squashed_0010_field_names'),
        ('competitions', '0008_audit_actions_issue25_squashed_0024_field_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ProgramVersion',
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
                ('version', models.PositiveIntegerField(verbose_name='version')),
                ('file', models.FileField(max_length=300, upload_to=pwscup.submissions.models.kept_upload_path, verbose_name='file')),
                ('original_filename', models.CharField(blank=True, max_length=255, verbose_name='file name')),
                ('sha256', models.CharField(max_length=64, verbose_name='SHA-256')),
                ('size', models.PositiveBigIntegerField(default=0, verbose_name='size (bytes)')),
                ('metadata', models.JSONField(blank=True, default=dict, verbose_name='metadata')),
                ('build_log', models.TextField(blank=True, verbose_name='build log')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='uploaded at')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
            ],
            options={
                'verbose_name': 'scoring program version',
                'verbose_name_plural': 'scoring program versions',
                'ordering': ['-version'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='ScorerRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('frozen_at', models.DateTimeField(blank=True, null=True, verbose_name='frozen at')),
                ('results_published', models.BooleanField(default=False, verbose_name='results published')),
                ('hidden_awaited', models.JSONField(blank=True, default=list, verbose_name='hidden data awaited')),
                ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='scorer', to='competitions.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 'scorer round',
                'verbose_name_plural': 'scorer rounds',
            },
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
                ('scores', models.JSONField(blank=True, default=dict, verbose_name='scores')),
                ('detail', models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path, verbose_name='detailed results')),
                ('program_ms', models.PositiveIntegerField(default=0, verbose_name="program's own time (ms)")),
                ('elapsed_ms', models.PositiveIntegerField(default=0, verbose_name='time taken (ms)')),
                ('tail', models.TextField(blank=True, verbose_name='program output (last lines)')),
                ('public', models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path, verbose_name='public files (ZIP)')),
                ('public_names', models.JSONField(blank=True, default=list, verbose_name='names of the public files')),
                ('selected', models.BooleanField(default=False, verbose_name='selected as final')),
                ('program', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scorer.programversion', verbose_name='scoring program version')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('scorer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='scorer.scorerround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'release',
                'verbose_name_plural': 'releases',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='RankingRun',
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
                ('teams', models.JSONField(blank=True, default=dict, verbose_name='ranking returned')),
                ('tail', models.TextField(blank=True, verbose_name='program output (last lines)')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='requested at')),
                ('program', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scorer.programversion', verbose_name='scoring program version')),
                ('scorer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='rankings', to='scorer.scorerround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'ranking program run',
                'verbose_name_plural': 'ranking program runs',
                'ordering': ['-created_at', '-pk'],
                'abstract': False,
            },
        ),
        migrations.AddField(
            model_name='programversion',
            name='scorer',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='programs', to='scorer.scorerround', verbose_name='round'),
        ),
        migrations.CreateModel(
            name='DataPack',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('role', models.CharField(choices=[('reference', 'Reference data (hidden, for the scorer)'), ('truth', 'Truth folder (hidden, for the scorer)'), ('public', 'Files for every team'), ('slots', 'A folder per team slot')], max_length=16, verbose_name='role')),
                ('choice', models.CharField(blank=True, default='', max_length=32, verbose_name='data choice')),
                ('file', models.FileField(max_length=300, upload_to=pwscup.submissions.models.kept_upload_path, verbose_name='file')),
                ('original_filename', models.CharField(blank=True, max_length=255, verbose_name='file name')),
                ('sha256', models.CharField(max_length=64, verbose_name='SHA-256')),
                ('size', models.PositiveBigIntegerField(default=0, verbose_name='size (bytes)')),
                ('members', models.JSONField(blank=True, default=list, verbose_name='files in the ZIP')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='uploaded at')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('scorer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='packs', to='scorer.scorerround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'data pack',
                'verbose_name_plural': 'data packs',
                'ordering': ['-created_at', '-pk'],
            },
        ),
        migrations.CreateModel(
            name='Target',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='published at')),
                ('release', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='scorer.release', verbose_name='release')),
                ('scorer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='targets', to='scorer.scorerround', verbose_name='round')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
            ],
            options={
                'verbose_name': 'target',
                'verbose_name_plural': 'targets',
                'ordering': ['team__name', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='Attack',
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
                ('scores', models.JSONField(blank=True, default=dict, verbose_name='scores')),
                ('detail', models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path, verbose_name='detailed results')),
                ('program_ms', models.PositiveIntegerField(default=0, verbose_name="program's own time (ms)")),
                ('elapsed_ms', models.PositiveIntegerField(default=0, verbose_name='time taken (ms)')),
                ('tail', models.TextField(blank=True, verbose_name='program output (last lines)')),
                ('targets', models.JSONField(blank=True, default=dict, verbose_name='scores per target')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('program', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to='scorer.programversion', verbose_name='scoring program version')),
                ('scorer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='%(class)ss', to='scorer.scorerround', verbose_name='round')),
                ('target', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name='attacks', to='scorer.target', verbose_name='target')),
            ],
            options={
                'verbose_name': 'attack',
                'verbose_name_plural': 'attacks',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='TeamSlot',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('slot', models.PositiveIntegerField(verbose_name='slot')),
                ('scorer', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='slots', to='scorer.scorerround', verbose_name='round')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
            ],
            options={
                'verbose_name': 'team slot',
                'verbose_name_plural': 'team slots',
                'ordering': ['slot'],
            },
        ),
        migrations.CreateModel(
            name='ProgramBuild',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('host', models.CharField(max_length=255, verbose_name='host')),
                ('state', models.CharField(choices=[('building', 'Building'), ('ready', 'Ready'), ('failed', 'Build failed')], default='building', max_length=10, verbose_name='state')),
                ('log', models.TextField(blank=True, verbose_name='build log')),
                ('started_at', models.DateTimeField(blank=True, null=True, verbose_name='started at')),
                ('finished_at', models.DateTimeField(blank=True, null=True, verbose_name='finished at')),
                ('version', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='builds', to='scorer.programversion', verbose_name='scoring program version')),
            ],
            options={
                'verbose_name': 'program build on a host',
                'verbose_name_plural': 'program builds on hosts',
                'ordering': ['host'],
                'constraints': [models.UniqueConstraint(fields=('version', 'host'), name='scorer_build_one_per_host')],
            },
        ),
        migrations.AddIndex(
            model_name='release',
            index=models.Index(fields=['scorer', 'team', 'status'], name='scorer_rele_scorer__5b2b21_idx'),
        ),
        migrations.AddConstraint(
            model_name='programversion',
            constraint=models.UniqueConstraint(fields=('scorer', 'version'), name='scorer_program_version'),
        ),
        migrations.AddConstraint(
            model_name='target',
            constraint=models.UniqueConstraint(fields=('scorer', 'team'), name='scorer_target_one_per_team'),
        ),
        migrations.AddIndex(
            model_name='attack',
            index=models.Index(fields=['scorer', 'team', 'status'], name='scorer_atta_scorer__35eb49_idx'),
        ),
        migrations.AddConstraint(
            model_name='teamslot',
            constraint=models.UniqueConstraint(fields=('scorer', 'team'), name='scorer_slot_one_per_team'),
        ),
        migrations.AddConstraint(
            model_name='teamslot',
            constraint=models.UniqueConstraint(fields=('scorer', 'slot'), name='scorer_slot_unique'),
        ),
        pwscup.accounts.counted_tables.CountedTable(
            app_label='scorer',
            model_name='ScorerRound',
        ),
    ]
