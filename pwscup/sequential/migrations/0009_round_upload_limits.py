"""The upload window's fields are the core's (``UploadDates``, ``UploadLimits``): labels only."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('sequential', '0008_team_upload_kept_upload'),
    ]

    operations = [
        migrations.AlterField(
            model_name='sequentialround',
            name='daily_limit',
            field=models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads per day'),
        ),
        migrations.AlterField(
            model_name='sequentialround',
            name='total_limit',
            field=models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads in total'),
        ),
    ]
