"""Every migration of the app up to 0006_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows); the kind's round
table is counted toward the page generation as the old ones did.
"""

import django.db.models.deletion
import pwscup.accounts.counted_tables
import django.utils.timezone
import pwscup.competitions.models
import pwscup.submissions.models
import pwscup.synthetic.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('synthetic', '0001_initial'), ('synthetic', '0002_synpopulation_teamdraw_choice_key'), ('synthetic', '0003_release_phase_key'), ('synthetic', '0004_page_generation_trigger'), ('synthetic', '0005_names_only'), ('synthetic', '0006_field_names')]

    dependencies = [
        ('accounts', '0005_disqualification_reason_bounded_squashed_0010_field_names'),
        ('competitions', '0008_audit_actions_issue25_squashed_0024_field_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='SynRelease',
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
                ('rows', models.PositiveIntegerField(default=0, verbose_name='number of rows')),
                ('scores', models.JSONField(blank=True, default=dict, verbose_name='scores')),
                ('selected', models.BooleanField(default=False, verbose_name='selected as final')),
                ('elapsed_ms', models.PositiveIntegerField(default=0, verbose_name='time taken (ms)')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
            ],
            options={
                'verbose_name': 'synthetic release',
                'verbose_name_plural': 'synthetic releases',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
            },
            bases=(pwscup.synthetic.models.SynthMessages, models.Model),
        ),
        migrations.CreateModel(
            name='SyntheticRound',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('secret_seed', models.BigIntegerField(default=pwscup.synthetic.models._new_seed, editable=False, verbose_name='secret seed')),
                ('holdout', models.JSONField(default=list, editable=False, verbose_name='holdout (row numbers)')),
                ('aux', models.JSONField(default=list, editable=False, verbose_name='auxiliary table (row numbers)')),
                ('frozen_at', models.DateTimeField(blank=True, null=True, verbose_name='frozen at')),
                ('results_published', models.BooleanField(default=False, verbose_name='results published')),
                ('round', models.OneToOneField(on_delete=django.db.models.deletion.CASCADE, related_name='synthetic', to='competitions.round', verbose_name='round')),
            ],
            options={
                'verbose_name': 'synthetic round',
                'verbose_name_plural': 'synthetic rounds',
            },
        ),
        migrations.CreateModel(
            name='SynTarget',
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
                ('builtin', models.JSONField(blank=True, default=dict, verbose_name='built-in attacks')),
                ('release', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='synthetic.synrelease', verbose_name='synthetic release')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('synthetic', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='targets', to='synthetic.syntheticround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'target',
                'verbose_name_plural': 'targets',
                'abstract': False,
            },
            bases=(pwscup.synthetic.models.SynthMessages, models.Model),
        ),
        migrations.AddField(
            model_name='synrelease',
            name='synthetic',
            field=models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='releases', to='synthetic.syntheticround', verbose_name='round'),
        ),
        migrations.CreateModel(
            name='SynPopulation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('choice_key', models.CharField(max_length=32, verbose_name='data pack')),
                ('file', models.FileField(upload_to=pwscup.competitions.models.private_upload_path, verbose_name='population (CSV)')),
                ('source', models.FileField(blank=True, upload_to=pwscup.competitions.models.private_upload_path, verbose_name='population as uploaded')),
                ('encoding', models.CharField(blank=True, max_length=32, verbose_name='converted from')),
                ('filename', models.CharField(blank=True, max_length=255, verbose_name='file name')),
                ('sha256', models.CharField(max_length=64, verbose_name='SHA-256')),
                ('rows', models.PositiveIntegerField(default=0, verbose_name='number of rows')),
                ('holdout', models.JSONField(default=list, editable=False, verbose_name='holdout (row numbers)')),
                ('aux', models.JSONField(default=list, editable=False, verbose_name='auxiliary table (row numbers)')),
                ('uploaded_at', models.DateTimeField(auto_now_add=True, verbose_name='uploaded at')),
                ('synthetic', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='populations', to='synthetic.syntheticround', verbose_name='round')),
            ],
            options={
                'verbose_name': 'population',
                'verbose_name_plural': 'populations',
                'ordering': ['synthetic', 'choice_key'],
            },
        ),
        migrations.CreateModel(
            name='TeamDraw',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('members', models.JSONField(default=list, verbose_name='member rows')),
                ('nonmembers', models.JSONField(default=list, verbose_name='non-member rows')),
                ('challenge', models.JSONField(default=list, verbose_name='challenge set rows')),
                ('labels', models.JSONField(default=list, verbose_name='challenge set labels')),
                ('dev', models.JSONField(default=list, verbose_name='in the dev half of the challenge set')),
                ('disjoint', models.BooleanField(default=True, verbose_name="disjoint from the other teams' rows")),
                ('choice_key', models.CharField(blank=True, default='', max_length=32, verbose_name='data pack')),
                ('auc_train', models.FloatField(blank=True, null=True, verbose_name='AUC of a model trained on the members')),
                ('created_at', models.DateTimeField(auto_now_add=True, verbose_name='drawn at')),
                ('synthetic', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='draws', to='synthetic.syntheticround', verbose_name='round')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
            ],
            options={
                'verbose_name': 'team draw',
                'verbose_name_plural': 'team draws',
                'ordering': ['created_at', 'pk'],
            },
        ),
        migrations.CreateModel(
            name='SynAttack',
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
                ('dev', models.JSONField(blank=True, default=dict, verbose_name='scores on the dev half')),
                ('final', models.JSONField(blank=True, default=dict, verbose_name='scores on the final half')),
                ('final_roc', models.JSONField(blank=True, default=dict, verbose_name='ROC curve on the final half')),
                ('team', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='+', to='accounts.team', verbose_name='team')),
                ('uploaded_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='uploaded by')),
                ('target', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='attacks', to='synthetic.syntarget', verbose_name='target')),
            ],
            options={
                'verbose_name': 'membership-inference attack',
                'verbose_name_plural': 'membership-inference attacks',
                'ordering': ['-created_at', '-id'],
                'abstract': False,
                'indexes': [models.Index(fields=['target', 'team', 'status'], name='synthetic_s_target__facd81_idx')],
            },
            bases=(pwscup.synthetic.models.SynthMessages, models.Model),
        ),
        migrations.AddConstraint(
            model_name='syntarget',
            constraint=models.UniqueConstraint(fields=('synthetic', 'team'), name='syn_target_one_per_team'),
        ),
        migrations.AddIndex(
            model_name='synrelease',
            index=models.Index(fields=['synthetic', 'team', 'status'], name='synthetic_s_synthet_c715df_idx'),
        ),
        migrations.AddConstraint(
            model_name='synpopulation',
            constraint=models.UniqueConstraint(fields=('synthetic', 'choice_key'), name='syn_population_one_per_pack'),
        ),
        migrations.AddConstraint(
            model_name='teamdraw',
            constraint=models.UniqueConstraint(fields=('synthetic', 'team'), name='syn_draw_one_per_team'),
        ),
        pwscup.accounts.counted_tables.CountedTable(
            app_label='synthetic',
            model_name='SyntheticRound',
        ),
    ]
