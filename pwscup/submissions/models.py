"""What every kind's jobs and uploads share: the job state (``JobState``) and the kept upload
(``KeptUpload``), and the live-status versions the job state machine bumps (``LiveVersion``).

Every scored object carries its job state in ``status``; each transition is a conditional
UPDATE (``services/jobs.py``), so a task delivered twice does no harm. The concrete upload
models live with their kind (``pwscup/pwscup2015/models.py``, ``pwscup/dp/models.py``, ...).
"""

import secrets
from typing import ClassVar

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.round_fields import round_reference
from pwscup.core.model_fields import account_reference

NOTE_MAX_LENGTH = 200


def upload_path(instance, filename: str) -> str:
    """Where the 2015 uploads were kept before ``kept_upload_path`` (old migrations name it)."""
    stamp = timezone.now().strftime("%Y/%m/%d")
    return f"private/uploads/{stamp}/{secrets.token_hex(8)}-{filename}"


def kept_upload_path(instance, filename: str) -> str:
    """A kept upload's storage name: private, in its model's folder (``UPLOAD_FOLDER``), by
    day, behind a random prefix (two teams' ``anonymized.csv`` never meet)."""
    stamp = timezone.now().strftime("%Y/%m/%d")
    return f"private/{instance.UPLOAD_FOLDER}/{stamp}/{secrets.token_hex(8)}-{filename}"


class Status(models.TextChoices):
    """The one vocabulary of job states, stored as is by every kind's jobs. A kind may name a
    state otherwise in its pages (``JobState.STATUS_LABELS``), never store another value."""

    QUEUED = "queued", _("Queued")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    FAILED = "failed", _("Failed")


#: The states of a job not ended yet: queued, or running on a worker.
PENDING = (Status.QUEUED, Status.RUNNING)


#: How the pages name the states of an upload a worker scores (``JobState.STATUS_LABELS``
#: of the kinds' releases and attacks).
SCORED_UPLOAD_LABELS = {
    Status.RUNNING: _("Being scored"),
    Status.FINISHED: _("Scored"),
    Status.FAILED: _("Rejected"),
}


class AutoFreezeRow(models.Model):
    """The automatic freeze at the release phase's close, on a kind's row of the round (a
    two-sided kind's ``ScorerRound``, ``SyntheticRound``): the organizer's setting and, when
    the platform's freeze was refused, why (the console's panel shows it until a freeze
    passes). The core's ``rounds_auto_freeze`` reads and writes both
    (``RoundKind.auto_freeze``)."""

    auto_freeze = models.BooleanField(
        _("freeze the releases automatically at the release phase's close"),
        default=False,
        help_text=_(
            "At the release phase's close the platform freezes the releases, as the "
            "console's button does, once the releases uploaded before the close are scored."
        ),
    )
    auto_freeze_refusal = models.TextField(
        _("why the automatic freeze was refused"), blank=True, editable=False
    )

    class Meta:
        abstract = True


class JobState(models.Model):
    """The state of one background job, declared once for every job of every kind.

    An upload's scoring or check, the slides' preview, a round operation, a target's
    built-in attacks: each is a row of its own model that inherits these fields, and only
    ``pwscup.submissions.services.jobs`` changes them (one conditional UPDATE per
    transition, ``started_at`` as the run's token).

    Why an abstract model and not one job table: a job's state is read with the job's own
    data in the same row (a leaderboard filters finished uploads by ``status`` beside their
    scores; the one-active-operation constraint is a partial unique index over ``status``
    and the operation's round), and a transition updates state and results in one UPDATE
    of one row. A separate job table would cost a join on every such read and a second
    row (and a second write) per job. The shape stays one: every job row has the same
    field names, so the transitions take a model and a primary key, nothing else.
    """

    #: The enum of ``status``, on every job model (``Slides.Status.FINISHED``).
    Status = Status
    #: How a kind's pages name a state where the core's word does not fit
    #: (``{Status.FINISHED: _("Valid")}``); the stored value stays the core's.
    STATUS_LABELS: ClassVar[dict] = {}
    #: What a run loads with its row (``select_related``) besides its round and its team
    #: (its ``JobKind``'s paths): what else the kind's ``compute`` reads (``job_execute``).
    JOB_RELATED: ClassVar[tuple] = ()

    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.QUEUED, db_index=True
    )
    # When the job's task was last sent to the broker: the reaper resends a job that has
    # waited too long, but not one it (or a rescore) has just sent.
    queued_at = models.DateTimeField(_("queued at"), default=timezone.now)
    # The run's token: set by the claim, compared by every later transition of the run.
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    task_id = models.CharField(_("task ID"), max_length=64, blank=True)
    # Hostname of the Celery worker running the job: the reaper requeues a RUNNING job
    # whose worker no longer answers a ping.
    worker = models.CharField(_("worker"), max_length=255, blank=True)
    attempts = models.PositiveSmallIntegerField(_("attempts"), default=0)
    # Why the job failed: a code and its parameters, rendered in each reader's language
    # (``pwscup.submissions.messages``); ``message`` holds the English text, and alone
    # the text of messages stored before codes existed.
    message = models.TextField(_("message"), blank=True)
    message_code = models.CharField(_("message code"), max_length=64, blank=True)
    message_params = models.JSONField(_("message parameters"), default=dict, blank=True)

    class Meta:
        abstract = True

    @property
    def status_label(self) -> str:
        """The state as this kind's pages name it (``STATUS_LABELS``, else the core's word)."""
        label = self.STATUS_LABELS.get(self.status)
        return str(label) if label is not None else str(self.get_status_display())

    @property
    def is_pending(self) -> bool:
        return self.status in PENDING


class KeptUpload(JobState):
    """A team's file kept exactly as uploaded, and the job that checks or scores it: what
    every kind's uploads inherit (a job of ``RoundKind.jobs`` on such a model is a team
    upload; the upload pipeline, ``services/uploads.py``, fills these fields). The concrete model adds its ``team`` (and
    how it is deleted with it), its window (a phase, a DP level, a release step...) and its
    results.

    ``file`` is empty for a row the platform built itself (a DP estimate from a release).
    """

    #: The folder under ``private/`` where the model's files are kept.
    UPLOAD_FOLDER: ClassVar[str] = "uploads"
    #: Whether a finished job has scored the upload (its team is told "scored"), or only
    #: checked it (told "checked": a DP estimate, scored at the round's close).
    SCORED_ON_CHECK: ClassVar[bool] = True

    file = models.FileField(_("file"), upload_to=kept_upload_path, max_length=300, blank=True)
    # The file's name as the team's computer gave it.
    original_filename = models.CharField(_("file name"), max_length=255, blank=True)
    sha256 = models.CharField("SHA-256", max_length=64, blank=True)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    # The team's own numbering of its uploads in the window (#1, #2, …), given at upload
    # under the team's row lock; the global id means nothing to a team.
    number = models.PositiveIntegerField(_("number in the team"), default=0)
    # A short line the team writes about the upload ("k=5 + noise σ=10"), editable later.
    note = models.CharField(_("note"), max_length=NOTE_MAX_LENGTH, blank=True)
    uploaded_by = account_reference(blank=True, verbose_name=_("uploaded by"))
    created_at = models.DateTimeField(_("uploaded at"), default=timezone.now, db_index=True)

    class Meta(JobState.Meta):
        abstract = True
        ordering = ["-created_at", "-id"]

    @property
    def label(self) -> str:
        """How every page, message, console table, API answer and the CLI name an upload:
        the team's own number in its window ("#3"), never the global id."""
        return f"#{self.number}"


class VoidableUpload(models.Model):
    """An upload the organizers may void, or its team withdraw, on a kind that declares it
    (a ``SubmissionType`` with ``voidable``): kept as uploaded (file, scores and status
    untouched) and counted nowhere while ``voided_at`` is set (``pwscup.submissions.voids``:
    ``counted``, the one filter of every counting query). Only
    ``pwscup.submissions.services.voids`` writes these fields."""

    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    voided_by = account_reference(blank=True, verbose_name=_("voided by"))
    void_reason = models.CharField(_("why it was voided"), max_length=NOTE_MAX_LENGTH, blank=True)
    # The team withdrew it itself (a round letting teams withdraw their attacks), else the
    # organizers voided it.
    withdrawn = models.BooleanField(_("withdrawn by its team"), default=False)

    class Meta:
        abstract = True

    @property
    def is_voided(self) -> bool:
        return self.voided_at is not None


class LiveVersion(models.Model):
    """How often the jobs of one scope changed state: the version the live pages poll.

    A scope is a team in a round (both set: the team's jobs, the pages of the team), a whole
    round (``team`` empty: every job and operation of the round, the console's round page),
    or a team's jobs of no round (``round`` empty: the slides of the competition's
    presentations page). The job state machine bumps it on every transition
    (``pwscup.submissions.services.live``); a poll is answered 304 from one indexed read of
    it (``pwscup.pages.live``). A scope no job ever touched has no row: version 0.
    """

    round = round_reference(null=True, blank=True)
    team = team_reference(null=True, blank=True)
    version = models.PositiveBigIntegerField(_("version"), default=0)

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
