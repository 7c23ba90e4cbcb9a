"""The upload window's fields are the core's (``UploadDates``, ``UploadLimits``): labels only."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0008_audit_actions_issue25'),
    ]

    operations = [
        migrations.AlterField(
            model_name='phase',
            name='daily_limit',
            field=models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads per day'),
        ),
        migrations.AlterField(
            model_name='phase',
            name='total_limit',
            field=models.PositiveIntegerField(blank=True, help_text='Empty: no limit.', null=True, verbose_name='uploads in total'),
        ),
    ]
