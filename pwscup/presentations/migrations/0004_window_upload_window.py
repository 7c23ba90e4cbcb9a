"""The upload window's fields are the core's (``UploadDates``, ``UploadLimits``): labels only."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('presentations', '0003_slides_kept_upload'),
    ]

    operations = [
        migrations.AlterField(
            model_name='presentationwindow',
            name='closes_at',
            field=models.DateTimeField(verbose_name='closes at'),
        ),
        migrations.AlterField(
            model_name='presentationwindow',
            name='opens_at',
            field=models.DateTimeField(verbose_name='opens at'),
        ),
    ]
