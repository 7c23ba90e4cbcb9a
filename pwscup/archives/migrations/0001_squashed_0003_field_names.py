"""Every migration of the app up to 0003_field_names, as one (a database made anew runs
this; one that has run them all counts it as run; one that has run some goes on with
the rest of them). Written from the models by ``makemigrations``, not by squashing:
the old migrations' field-name changes cost a fresh ``migrate`` seconds of CPU.
Its data migrations are not here (a new database has no rows).
"""

import django.db.models.deletion
import django.utils.timezone
import pwscup.archives.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    replaces = [('archives', '0001_initial'), ('archives', '0002_public_variant'), ('archives', '0003_field_names')]

    dependencies = [
        ('competitions', '0008_audit_actions_issue25_squashed_0024_field_names'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='ResultsArchive',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('version', models.PositiveIntegerField(verbose_name='version')),
                ('file', models.FileField(max_length=300, upload_to=pwscup.archives.models.archive_path, verbose_name='archive (ZIP)')),
                ('sha256', models.CharField(max_length=64, verbose_name='SHA-256')),
                ('size', models.PositiveBigIntegerField(default=0, verbose_name='size (bytes)')),
                ('public_file', models.FileField(blank=True, max_length=300, upload_to=pwscup.archives.models.archive_path, verbose_name='archive without the slides (ZIP)')),
                ('public_sha256', models.CharField(blank=True, max_length=64, verbose_name='SHA-256 of the archive without the slides')),
                ('public_size', models.PositiveBigIntegerField(default=0, verbose_name='size of the archive without the slides (bytes)')),
                ('secrets', models.JSONField(blank=True, default=list, help_text='Keys of the ticked secrets.', verbose_name='secrets included')),
                ('created_at', models.DateTimeField(default=django.utils.timezone.now, editable=False, verbose_name='published at')),
                ('competition', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='results_archives', to='competitions.competition', verbose_name='competition')),
                ('created_by', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='published by')),
            ],
            options={
                'verbose_name': 'results archive',
                'verbose_name_plural': 'results archives',
                'ordering': ['competition', '-version'],
                'constraints': [models.UniqueConstraint(fields=('competition', 'version'), name='results_archive_version_per_competition')],
            },
        ),
    ]
