"""Slides inherit the core's kept upload (``KeptUpload``): ``original_name`` is renamed
``original_filename`` (every value kept); ``note`` is added, empty."""

import django.db.models.deletion
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('presentations', '0002_slides_shared_status'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name='slides',
            old_name='original_name',
            new_name='original_filename',
        ),
        migrations.AddField(
            model_name='slides',
            name='note',
            field=models.CharField(blank=True, max_length=200, verbose_name='note'),
        ),
        migrations.AlterField(
            model_name='slides',
            name='file',
            field=models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path),
        ),
        migrations.AlterField(
            model_name='slides',
            name='sha256',
            field=models.CharField(blank=True, max_length=64),
        ),
        migrations.AlterField(
            model_name='slides',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
    ]
