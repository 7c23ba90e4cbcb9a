"""Uploads and what is derived from them: anonymizations, targets and attacks.

Every scored object carries its job state in ``status``; each transition is a
conditional UPDATE in ``services.py``, so a task delivered twice does no harm.
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


def generated_path(instance, filename: str) -> str:
    return f"private/generated/{secrets.token_hex(8)}-{filename}"


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


class AnonymizationSubmission(ScoredUpload):
    PHASE_KIND = Phase.Kind.ANONYMIZATION

    scores = models.JSONField(default=dict, blank=True)
    is_selected = models.BooleanField(default=False)

    class Meta(ScoredUpload.Meta):
        verbose_name = _("anonymization submission")
        verbose_name_plural = _("anonymization submissions")
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "team"],
                condition=models.Q(is_selected=True),
                name="one_selected_submission_per_team",
            ),
            models.UniqueConstraint(
                fields=["phase", "team", "number"], name="anonymization_number_per_team"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.team} ({self.status})"


class TeamDataset(models.Model):
    """Per-team mode: the team's own sample of the master table (secret to other teams)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="team_datasets")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="datasets")
    sample_index = models.JSONField(help_text=_("0-based master row indices, in sample order"))
    file = models.FileField(upload_to=generated_path, max_length=300)
    rows = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        unique_together = [("round", "team")]
        verbose_name = _("team dataset")
        verbose_name_plural = _("team datasets")

    def __str__(self) -> str:
        return f"{self.team} sample ({self.rows} rows)"


class Target(models.Model):
    """A team's frozen anonymization, published (shuffled) for the attack phase."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="targets")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="targets")
    submission = models.ForeignKey(
        AnonymizationSubmission, on_delete=models.PROTECT, related_name="targets"
    )
    version = models.PositiveIntegerField(default=1)
    published_file = models.FileField(upload_to=generated_path, max_length=300)
    # Secret: 1-based row numbers in the reference table of each published row.
    truth_file = models.FileField(upload_to=generated_path, max_length=300)
    # Per-team mode only: the candidate table (sample + decoys, shuffled).
    candidate_file = models.FileField(upload_to=generated_path, max_length=300, blank=True)
    rows = models.PositiveIntegerField()
    reference_rows = models.PositiveIntegerField()
    published_at = models.DateTimeField(default=timezone.now)
    builtin_status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    builtin_rates = models.JSONField(default=dict, blank=True)
    builtin_message = models.TextField(blank=True)
    builtin_message_code = models.CharField(max_length=64, blank=True)
    builtin_message_params = models.JSONField(default=dict, blank=True)
    builtin_attempts = models.PositiveSmallIntegerField(default=0)
    builtin_task_id = models.CharField(max_length=64, blank=True)
    builtin_worker = models.CharField(max_length=255, blank=True)
    builtin_queued_at = models.DateTimeField(default=timezone.now)
    builtin_started_at = models.DateTimeField(null=True, blank=True)
    scorer_version = models.CharField(max_length=32, blank=True)

    class Meta:
        unique_together = [("round", "team")]
        ordering = ["round", "team__name"]
        verbose_name = _("attack target")
        verbose_name_plural = _("attack targets")

    def __str__(self) -> str:
        return f"{self.team} target v{self.version}"


class AttackSubmission(ScoredUpload):
    PHASE_KIND = Phase.Kind.ATTACK

    target = models.ForeignKey(Target, on_delete=models.CASCADE, related_name="attacks")
    target_version = models.PositiveIntegerField()
    rate = models.FloatField(null=True, blank=True)
    correct = models.PositiveIntegerField(null=True, blank=True)
    rows = models.PositiveIntegerField(null=True, blank=True)

    class Meta(ScoredUpload.Meta):
        verbose_name = _("attack submission")
        verbose_name_plural = _("attack submissions")
        constraints = [
            models.UniqueConstraint(
                fields=["phase", "team", "number"], name="attack_number_per_team"
            )
        ]

    def __str__(self) -> str:
        return f"{self.label} {self.team} → {self.target.team} ({self.status})"


class RoundOperation(models.Model):
    """An organizer's round-wide operation (freeze, rescore, publish) run as a background job.

    One row per request; its job state uses the same fields and transitions as an
    upload's scoring (``services/jobs.py``). While one is queued or running, asking again
    returns it (one active operation per round and kind).
    """

    class Kind(models.TextChoices):
        FREEZE = "freeze", _("Freeze")
        RESCORE = "rescore", _("Rescore everything")
        PUBLISH = "publish", _("Publish the results")

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="operations")
    kind = models.CharField(max_length=16, choices=Kind.choices)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    status = models.CharField(
        max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    progress_done = models.PositiveIntegerField(default=0)
    progress_total = models.PositiveIntegerField(default=0)
    # What the operation did, e.g. {"published": 3, "unchanged": 97} for a freeze.
    result = models.JSONField(default=dict, blank=True)
    message = models.TextField(blank=True)
    message_code = models.CharField(max_length=64, blank=True)
    message_params = models.JSONField(default=dict, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    task_id = models.CharField(max_length=64, blank=True)
    worker = models.CharField(max_length=255, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    queued_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("round operation")
        verbose_name_plural = _("round operations")
        constraints = [
            models.UniqueConstraint(
                fields=["round", "kind"],
                condition=models.Q(status__in=["queued", "running"]),
                name="one_active_operation_per_round_and_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} {self.round} ({self.status})"
