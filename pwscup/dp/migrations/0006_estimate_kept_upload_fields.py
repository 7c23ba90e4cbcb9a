"""An estimate inherits the core's kept upload (``KeptUpload``): ``user`` is renamed
``uploaded_by`` (every value kept); ``note`` is added, empty; the rest only relaxes or
gains an index."""

import django.db.models.deletion
import django.utils.timezone
import pwscup.submissions.models
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('dp', '0005_estimate_shared_status'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name='estimate',
            old_name='user',
            new_name='uploaded_by',
        ),
        migrations.AddField(
            model_name='estimate',
            name='note',
            field=models.CharField(blank=True, max_length=200, verbose_name='note'),
        ),
        migrations.AlterField(
            model_name='estimate',
            name='uploaded_by',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL),
        ),
        migrations.AlterField(
            model_name='estimate',
            name='created_at',
            field=models.DateTimeField(db_index=True, default=django.utils.timezone.now),
        ),
        migrations.AlterField(
            model_name='estimate',
            name='file',
            field=models.FileField(blank=True, max_length=300, upload_to=pwscup.submissions.models.kept_upload_path),
        ),
    ]
