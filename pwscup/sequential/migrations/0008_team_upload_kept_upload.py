"""Releases and attacks inherit the core's kept upload (``KeptUpload``): ``original_name``
is renamed ``original_filename`` (every value kept); ``note`` is added, empty."""

import django.db.models.deletion
import django.utils.timezone
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sequential', '0007_shared_job_status'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name='release',
            old_name='original_name',
            new_name='original_filename',
        ),
        migrations.RenameField(
            model_name='seqattack',
            old_name='original_name',
            new_name='original_filename',
        ),
        migrations.AddField(
            model_name='release',
            name='note',
            field=models.CharField(blank=True, max_length=200, verbose_name='note'),
        ),
        migrations.AddField(
            model_name='seqattack',
            name='note',
            field=models.CharField(blank=True, max_length=200, verbose_name='note'),
        ),
        migrations.AlterField(
            model_name='release',
            name='created_at',
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.AlterField(
            model_name='release',
            name='file',
            field=models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path),
        ),
        migrations.AlterField(
            model_name='release',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='seqattack',
            name='created_at',
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.AlterField(
            model_name='seqattack',
            name='file',
            field=models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path),
        ),
        migrations.AlterField(
            model_name='seqattack',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
    ]
