"""The upload window's fields are the core's (``UploadDates``, ``UploadLimits``): labels only."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('dp', '0006_estimate_kept_upload_fields'),
    ]

    operations = [
        migrations.AlterField(
            model_name='dpround',
            name='closes_at',
            field=models.DateTimeField(verbose_name='closes at'),
        ),
        migrations.AlterField(
            model_name='dpround',
            name='opens_at',
            field=models.DateTimeField(verbose_name='opens at'),
        ),
    ]
