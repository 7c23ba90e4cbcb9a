"""The uploads inherit the core's kept upload (``KeptUpload``): ``submitted_by`` is renamed
``uploaded_by`` (every value kept), the other fields only relax (blank, a default) or move
to the shared storage path."""

import django.db.models.deletion
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('pwscup2015', '0004_builtin_attack_job_row'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name='anonymizationsubmission',
            old_name='submitted_by',
            new_name='uploaded_by',
        ),
        migrations.RenameField(
            model_name='attacksubmission',
            old_name='submitted_by',
            new_name='uploaded_by',
        ),
        migrations.AlterField(
            model_name='anonymizationsubmission',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='attacksubmission',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='anonymizationsubmission',
            name='file',
            field=models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path),
        ),
        migrations.AlterField(
            model_name='anonymizationsubmission',
            name='original_filename',
            field=models.CharField(blank=True, max_length=255),
        ),
        migrations.AlterField(
            model_name='anonymizationsubmission',
            name='sha256',
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AlterField(
            model_name='anonymizationsubmission',
            name='size',
            field=models.PositiveBigIntegerField(default=0),
        ),
        migrations.AlterField(
            model_name='attacksubmission',
            name='file',
            field=models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path),
        ),
        migrations.AlterField(
            model_name='attacksubmission',
            name='original_filename',
            field=models.CharField(blank=True, max_length=255),
        ),
        migrations.AlterField(
            model_name='attacksubmission',
            name='sha256',
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AlterField(
            model_name='attacksubmission',
            name='size',
            field=models.PositiveBigIntegerField(default=0),
        ),
    ]
