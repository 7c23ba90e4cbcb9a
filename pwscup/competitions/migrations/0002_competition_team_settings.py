import django.core.validators
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('competitions', '0001_initial'),
    ]

    operations = [
        migrations.AddField(
            model_name='competition',
            name='max_team_size',
            field=models.PositiveSmallIntegerField(default=5, help_text='Members a team may have, its captain included.', validators=[django.core.validators.MinValueValidator(1)], verbose_name='maximum team size'),
        ),
        migrations.AddField(
            model_name='competition',
            name='registration_locked',
            field=models.BooleanField(default=False, help_text='Participants can no longer create or join teams (organizers still can).', verbose_name='registration locked'),
        ),
    ]
