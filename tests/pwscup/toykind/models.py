"""The toy's state and uploads: its own row one-to-one with the round (as a kind keeps what
``Round`` does not have), and uploads with the core's kept-upload fields
(``RoundKind.upload_models``) and the core's job state (``JobState``). Their tables are created
by the tests' fixture."""

from django.db import models
from django.utils import timezone

from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.submissions.models import JobState


class ToyRound(models.Model):
    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="toygame"
    )
    published = models.BooleanField(default=False)

    class Meta:
        app_label = "toykind"

    def __str__(self) -> str:
        return f"toy state of round {self.round_id}"


class ToyUpload(JobState):
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    file = models.FileField(upload_to="private/toy/")
    sha256 = models.CharField(max_length=64, blank=True)
    size = models.PositiveBigIntegerField(default=0)
    number = models.PositiveIntegerField(default=0)
    score = models.FloatField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "toykind"

    def __str__(self) -> str:
        return f"toy #{self.number}"
