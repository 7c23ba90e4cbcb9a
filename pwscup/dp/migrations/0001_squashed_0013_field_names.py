"""Every migration of the app up to 0013_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows); the kind's round
table is counted toward the page generation as the old ones did.
"""

import django.db.models.deletion
import pwscup.accounts.counted_tables
import django.utils.timezone
import pwscup.dp.models
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('dp', '0001_initial'), ('dp', '0002_config_text'), ('dp', '0003_estimate_queued'), ('dp', '0004_estimate_kept_upload'), ('dp', '0005_estimate_shared_status'), ('dp', '0006_estimate_kept_upload_fields'), ('dp', '0007_dpround_upload_dates'), ('dp', '0008_dpround_upload_limits'), ('dp', '0009_dpround_planned_window'), ('dp', '0010_page_generation_trigger'), ('dp', '0011_alter_ledger_options'), ('dp', '0012_names_only'), ('dp', '0013_field_names')]

    dependencies = [
        ('accounts', '0005_disqualification_reason_bounded_squashed_0010_field_names'),
        ('competitions', '0008_audit_actions_issue25_squashed_0024_field_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='DPRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('opens_at', models.DateTimeField(verbose_name='opens at')),
                ('closes_at', models.DateTimeField(verbose_name='closes at')),
                ('planned_opens_at', models.DateTimeField(blank=True, null=True, verbose_name='planned to open at')),
                ('planned_closes_at', models.DateTimeField(blank=True, null=True, verbose_name='planned to close at')),
                ('daily_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads per day')),
                ('total_limit', models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads in total')),
                ('config_text', models.TextField(default='{}', editable=False, verbose_name='configuration (text)')),
                ('scored_at', models.DateTimeField(blank=True, editable=False, null=True, verbose_name='scored at')),
                ('baselines', models.JSONField(blank=True, default=dict, editable=False, verbose_name='baselines')),
                ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='dp', to='competitions.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 'DP round',
                'verbose_name_plural': 'DP rounds',
            },
        ),
        migrations.CreateModel(
            name='Estimate',
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
                ('level', models.CharField(max_length=64, verbose_name='level')),
                ('source', models.CharField(choices=[('upload', 'Uploaded estimate'), ('release', 'Platform estimator on a release'), ('answer', 'Query answer'), ('declared_table', 'Declared released table'), ('declared_counts', 'Declared noisy counts')], default='upload', max_length=20, verbose_name='made from')),
                ('declaration', models.JSONField(blank=True, default=dict, verbose_name='declaration')),
                ('counts', models.JSONField(blank=True, default=dict, verbose_name='estimated counts')),
                ('method', models.CharField(blank=True, max_length=40, verbose_name='method')),
                ('estimator', models.CharField(blank=True, max_length=8, verbose_name='estimator')),
                ('declared', models.BooleanField(default=False, verbose_name='declared, unverified')),
                ('declared_epsilon', models.CharField(blank=True, max_length=200, verbose_name='declared ε')),
                ('plausibility', models.JSONField(blank=True, default=dict, verbose_name='plausibility check')),
                ('flagged', models.BooleanField(default=False, verbose_name='flagged')),
                ('scores', models.JSONField(blank=True, default=dict, verbose_name='scores')),
                ('dp_round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='estimates', to='dp.dpround', verbose_name='round')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='dp_estimates', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
            ],
            options={
                'verbose_name': 'estimate',
                'verbose_name_plural': 'estimates',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
        ),
        migrations.CreateModel(
            name='Ledger',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('level', models.CharField(max_length=64, verbose_name='level')),
                ('budget', models.CharField(max_length=64, verbose_name='budget')),
                ('spent', models.CharField(default='0', max_length=200, verbose_name='spent')),
                ('charges_count', models.PositiveIntegerField(default=0, verbose_name='number of charges')),
                ('dp_round', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='ledgers', to='dp.dpround', verbose_name='round')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='dp_ledgers', to='accounts.team', verbose_name='team')),
            ],
            options={
                'verbose_name': 'budget ledger (ε)',
                'verbose_name_plural': 'budget ledgers (ε)',
            },
        ),
        migrations.CreateModel(
            name='Charge',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField(verbose_name='charge number')),
                ('kind', models.CharField(choices=[('query', 'Query'), ('release', 'Batch release')], max_length=10, verbose_name='kind')),
                ('request_id', models.CharField(blank=True, max_length=100, verbose_name='request ID')),
                ('epsilon', models.CharField(max_length=200, verbose_name='ε spent')),
                ('spent_after', models.CharField(max_length=200, verbose_name='spent after this charge')),
                ('request', models.JSONField(default=dict, verbose_name='request')),
                ('reply', models.JSONField(default=dict, verbose_name='reply')),
                ('release_file', models.FileField(blank=True, max_length=300, upload_to=pwscup.dp.models.dp_private_path, verbose_name='released table (CSV)')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, verbose_name='charged at')),
                ('user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='account')),
                ('ledger', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='charges', to='dp.ledger', verbose_name='budget ledger (ε)')),
            ],
            options={
                'verbose_name': 'charge',
                'verbose_name_plural': 'charges',
                'ordering': ['ledger', 'number'],
            },
        ),
        migrations.AddConstraint(
            model_name='ledger',
            constraint=models.UniqueConstraint(fields=('dp_round', 'team', 'level'), name='dp_ledger_one_per_team_level'),
        ),
        migrations.AddConstraint(
            model_name='charge',
            constraint=models.UniqueConstraint(fields=('ledger', 'number'), name='dp_charge_number_unique'),
        ),
        migrations.AddConstraint(
            model_name='charge',
            constraint=models.UniqueConstraint(condition=models.Q(('request_id', ''), _negated=True), fields=('ledger', 'request_id'), name='dp_charge_request_id_unique'),
        ),
        pwscup.accounts.counted_tables.CountedTable(
            app_label='dp',
            model_name='DPRound',
        ),
    ]
