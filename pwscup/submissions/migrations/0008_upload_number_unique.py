# In its own migration (transaction): PostgreSQL refuses to alter a table with pending
# trigger events left by the backfill of 0007.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("submissions", "0007_upload_number_and_note"),
    ]

    operations = [
        migrations.AddConstraint(
            model_name="anonymizationsubmission",
            constraint=models.UniqueConstraint(
                fields=("phase", "team", "number"), name="anonymization_number_per_team"
            ),
        ),
        migrations.AddConstraint(
            model_name="attacksubmission",
            constraint=models.UniqueConstraint(
                fields=("phase", "team", "number"), name="attack_number_per_team"
            ),
        ),
    ]
