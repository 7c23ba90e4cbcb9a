"""What every kind's uploads share: the job states and the abstract kept, scored upload.

Every scored object carries its job state in ``status``; each transition is a conditional
UPDATE (``services/jobs.py``), so a task delivered twice does no harm. The concrete upload
models live with their kind (``pwscup/pwscup2015/models.py``, ``pwscup/dp/models.py``, ...).
"""

import secrets

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase, Round

NOTE_MAX_LENGTH = 200


def upload_path(instance, filename: str) -> str:
    stamp = timezone.now().strftime("%Y/%m/%d")
    return f"private/uploads/{stamp}/{secrets.token_hex(8)}-{filename}"


class Status(models.TextChoices):
    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", _("Failed")


class ScoredUpload(models.Model):
    """An uploaded file, kept exactly as uploaded, and the state of its scoring job."""

    phase = models.ForeignKey(Phase, on_delete=models.PROTECT, related_name="+")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    file = models.FileField(upload_to=upload_path, max_length=300)
    original_filename = models.CharField(max_length=255)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveBigIntegerField()
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    # The team's own numbering of its uploads in the phase (#1, #2, …), given at upload
    # under the team's row lock; the global id means nothing to a team.
    number = models.PositiveIntegerField(_("number in the team"), default=0)
    # A short line the team writes about the upload ("k=5 + noise σ=10"), editable later.
    note = models.CharField(_("note"), max_length=NOTE_MAX_LENGTH, blank=True)
    # Why the job failed: a code and its parameters, rendered in each reader's language
    # (``pwscup.submissions.messages``); ``message`` holds the English text, and alone
    # the text of messages stored before codes existed.
    message = models.TextField(blank=True)
    message_code = models.CharField(max_length=64, blank=True)
    message_params = models.JSONField(default=dict, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    # Hostname of the Celery worker running the job: the reaper requeues a RUNNING job
    # whose worker no longer answers a ping.
    worker = models.CharField(max_length=255, blank=True)
    scorer_version = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    # When the scoring task was last sent to the broker: the reaper resends a job that has
    # waited too long, but not one it (or a rescore) has just sent.
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-id"]

    @property
    def label(self) -> str:
        """How every page, message, console table, API answer and the CLI name an upload:
        the team's own number in the phase ("#3"), never the global id."""
        return f"#{self.number}"


class LiveVersion(models.Model):
    """How often the jobs of one scope changed state: the version the live pages poll.

    A scope is a team in a round (both set: the team's jobs, the pages of the team), a whole
    round (``team`` empty: every job and operation of the round, the console's round page),
    or a team's jobs of no round (``round`` empty: the slides of the competition's
    presentations page). The job state machine bumps it on every transition
    (``pwscup.submissions.services.live``); a poll is answered 304 from one indexed read of
    it (``pwscup.pages.live``). A scope no job ever touched has no row: version 0.
    """

    round = models.ForeignKey(
        Round, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    version = models.PositiveBigIntegerField(default=0)

    class Meta:
        # One partial unique index per kind of scope, not one over (round, team): NULLs are
        # distinct in a unique index, so a row with an empty side would not be unique. Each
        # also serves the poll's lookup of its scope.
        constraints = [
            models.UniqueConstraint(
                fields=["round", "team"],
                condition=models.Q(round__isnull=False, team__isnull=False),
                name="live_version_one_per_team",
            ),
            models.UniqueConstraint(
                fields=["round"],
                condition=models.Q(round__isnull=False, team__isnull=True),
                name="live_version_one_per_round",
            ),
            models.UniqueConstraint(
                fields=["team"],
                condition=models.Q(round__isnull=True, team__isnull=False),
                name="live_version_one_per_team_of_no_round",
            ),
            models.CheckConstraint(
                condition=models.Q(round__isnull=False) | models.Q(team__isnull=False),
                name="live_version_has_a_scope",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round_id or '-'}/{self.team_id or '-'}: v{self.version}"
