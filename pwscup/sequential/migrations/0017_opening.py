"""A round's opening (release 1's): null for every stored round, which stays open as it was,
open since its creation (a null opening is no bound: ``window_check``)."""

from django.db import migrations, models

OPENING = models.DateTimeField(blank=True, null=True, verbose_name="release 1 opens at")


class Migration(migrations.Migration):
    dependencies = [("sequential", "0016_voided_uploads")]
    operations = [migrations.AddField("sequentialround", "opens_at", OPENING)]
