"""The toy's state and uploads: its own row one-to-one with the round (as a kind keeps what
``Round`` does not have), and uploads with the core's kept-upload fields and job state: the
core's ``KeptUpload`` (a job on such a model, ``RoundKind.jobs``, is a team upload). Their
tables are created by the tests' fixture."""

from django.db import models

from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.submissions.models import KeptUpload


class ToyRound(models.Model):
    round = models.OneToOneField(
        Round, on_delete=models.CASCADE, primary_key=True, related_name="toygame"
    )
    published = models.BooleanField(default=False)

    class Meta:
        app_label = "toykind"

    def __str__(self) -> str:
        return f"toy state of round {self.round_id}"


class ToyUpload(KeptUpload):
    UPLOAD_FOLDER = "toy"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    score = models.FloatField(null=True)

    class Meta(KeptUpload.Meta):
        app_label = "toykind"

    def __str__(self) -> str:
        return f"toy #{self.number}"


class ToyNote(KeptUpload):
    """The second submission type of ``test_toy_submission_types.py``: a note with a title."""

    UPLOAD_FOLDER = "toynote"

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    title = models.CharField(max_length=40)

    class Meta(KeptUpload.Meta):
        app_label = "toykind"

    def __str__(self) -> str:
        return f"toy note #{self.number}"
