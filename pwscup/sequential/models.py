"""A sequential round's data: its configuration, master tables, releases, scores, attacks."""

import datetime as dt
import json
import secrets
from typing import ClassVar

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.models import UploadLimits
from pwscup.competitions.round_fields import round_part, round_reference
from pwscup.core.files import source_encoding_label
from pwscup.core.model_fields import limit_column, one_per_team
from pwscup.submissions.models import SCORED_UPLOAD_LABELS, KeptUpload, Status, VoidableUpload


def _new_seed() -> int:
    return secrets.randbits(62)


def private_path(instance, filename: str) -> str:
    return f"private/sequential/{timezone.now():%Y%m%d%H%M%S}-{secrets.token_hex(6)}-{filename}"


class SequentialRound(UploadLimits):
    """The sequential part of a round: its configuration (spec §12) and how far it has run."""

    round = round_part(related_name="sequential")
    # JSON text, not a JSONField: PostgreSQL's jsonb reorders keys, and the order of the
    # "qi" columns is the order of every release's header.
    config_text = models.TextField(_("configuration"), default="{}")
    pool_file = models.FileField(_("pool of persons (CSV)"), upload_to=private_path, blank=True)
    # ``pool_file`` is UTF-8; a pool uploaded in another encoding is kept here as uploaded,
    # with the encoding it was converted from (``pwscup.core.files.organizer_csv``).
    pool_source = models.FileField(
        _("pool of persons as uploaded"), upload_to=private_path, blank=True, editable=False
    )
    pool_encoding = models.CharField(
        _("pool converted from"), max_length=32, blank=True, editable=False
    )
    secret_seed = models.BigIntegerField(_("secret seed"), default=_new_seed, editable=False)
    frozen_steps = models.PositiveSmallIntegerField(
        _("frozen steps"), default=0, help_text=_("Releases 1 … this number are frozen.")
    )
    results_published = models.BooleanField(_("results published"), default=False)
    # When release 1 opens (in batch mode every release): uploads are refused before it, as
    # before any kind's first window (``UploadDates.opens_at``). None: open since the round
    # was created (every round stored before the field existed, and a round created to open
    # at once).
    opens_at = models.DateTimeField(_("release 1 opens at"), null=True, blank=True)
    # Step windows: when each release step closes (ISO date-times, one per step, in order),
    # set from explicit times or from a first close and a step length (services.schedule_set).
    step_closes = models.JSONField(
        _("close of each release"),
        default=list,
        blank=True,
        help_text=_("Uploads of release j are refused from its close; empty: no deadline."),
    )
    auto_freeze = models.BooleanField(
        _("freeze each release automatically at its close"), default=True
    )
    # ``daily_limit`` and ``total_limit`` (``UploadLimits``) count a team's uploads of one
    # release step (each step is a window of its own).
    # The attack phase's limits (spec §10 is silent [chosen]: those of a two-sided round's
    # attack phase), counted over the team's guess files of the round.
    attack_daily_limit = limit_column(_("attacks per team per day"))
    attack_total_limit = limit_column(_("attacks per team in total"))
    attack_target_limit = limit_column(_("attacks per team per target"))
    # The attack phase's planned close (none: open until the results are published, which
    # ends it in any case): attacks are refused from it on (``services.attack_upload``).
    # (Its help: the forms', ``ScheduleFields`` and the admin's.)
    attack_closes_at = models.DateTimeField(_("attack phase closes at"), null=True, blank=True)

    class Meta:
        verbose_name = _("sequential round")
        verbose_name_plural = _("sequential rounds")

    def __str__(self) -> str:
        return str(self.round)

    @property
    def config(self) -> dict:
        """The normalised configuration (spec §12), keys in their order."""
        return json.loads(self.config_text or "{}")

    @config.setter
    def config(self, value: dict) -> None:
        self.config_text = json.dumps(value, ensure_ascii=False)

    @property
    def pool_encoding_label(self) -> str:
        """The encoding the pool was converted from (``"Shift_JIS (CP932)"``), or ``""``."""
        return source_encoding_label(self.pool_encoding)

    @property
    def n_releases(self) -> int:
        return int(self.config.get("n_releases", 0))

    def close_of(self, step: int) -> dt.datetime | None:
        """When release ``step`` closes, or None (no deadline)."""
        if not 1 <= step <= len(self.step_closes or []):
            return None
        return dt.datetime.fromisoformat(self.step_closes[step - 1])

    @property
    def all_frozen(self) -> bool:
        return self.n_releases > 0 and self.frozen_steps >= self.n_releases

    @property
    def attack_phase_begun(self) -> bool:
        """Every release is frozen and the round has an attack phase: its targets are out."""
        return self.all_frozen and bool(self.config.get("attack_phase"))

    def attack_open(self, now=None) -> bool:
        """Whether attacks are taken now: the phase has begun, the results are not out and
        its close (if any) is ahead."""
        now = now or timezone.now()
        closes_at = self.attack_closes_at
        return (
            self.attack_phase_begun
            and not self.results_published
            and (closes_at is None or now < closes_at)
        )


class Master(models.Model):
    """A master table ``pid,QI…,sa,lsf,lsb``: the round's shared one (no team) or a team's."""

    sequential = round_reference(SequentialRound, related_name="masters")
    team = team_reference(null=True, blank=True)
    file = models.FileField(_("master table (CSV)"), upload_to=private_path)
    # ``file`` is UTF-8 (what is scored and served; ``sha256`` is its hash); a master
    # uploaded in another encoding is kept here as uploaded, with that encoding.
    source = models.FileField(
        _("master table as uploaded"), upload_to=private_path, blank=True, editable=False
    )
    source_encoding = models.CharField(
        _("converted from"), max_length=32, blank=True, editable=False
    )
    sha256 = models.CharField("SHA-256", max_length=64, blank=True)
    persons = models.PositiveIntegerField(_("people"), default=0)
    drawn = models.BooleanField(
        _("drawn from the pool"),
        default=False,
        help_text=_("Drawn from the pool by the platform."),
    )
    created_at = models.DateTimeField(_("created"), auto_now_add=True)

    class Meta:
        constraints = [
            one_per_team("sequential", name="seq_master_one_per_team"),
            models.UniqueConstraint(
                fields=["sequential"],
                condition=models.Q(team__isnull=True),
                name="seq_master_one_shared",
            ),
        ]
        verbose_name = _("master table")
        verbose_name_plural = _("master tables")

    def __str__(self) -> str:
        return f"{self.sequential} / {self.team or '—'}"

    @property
    def source_encoding_label(self) -> str:
        """The encoding the master was converted from (``"Shift_JIS (CP932)"``), or ``""``."""
        return source_encoding_label(self.source_encoding)


class Release(KeptUpload, VoidableUpload):
    """One uploaded ``release_<j>.csv``, kept as uploaded (the core's ``KeptUpload``: its
    SHA-256, size and number, who and when, the check's job state and message), with its
    validation and scores; the organizers may void it until it is frozen (``VoidableUpload``:
    then it counts nowhere)."""

    UPLOAD_FOLDER = "sequential"

    STATUS_LABELS: ClassVar[dict] = {
        Status.RUNNING: _("Checking"),
        Status.FINISHED: _("Valid"),
        Status.FAILED: _("Rejected"),
    }

    sequential = round_reference(SequentialRound, related_name="releases")
    team = team_reference()
    step = models.PositiveSmallIntegerField(_("release"))
    results = models.JSONField(_("results"), default=dict, blank=True)
    per_person = models.TextField(
        _("risk per person"), blank=True, help_text=_("risk_per_person.csv over 1 … step")
    )
    elapsed_ms = models.PositiveIntegerField(_("time taken (ms)"), default=0)
    is_frozen = models.BooleanField(_("frozen"), default=False)

    class Meta(KeptUpload.Meta):
        indexes = [models.Index(fields=["sequential", "team", "step"])]
        verbose_name = _("release")
        verbose_name_plural = _("releases")

    def __str__(self) -> str:
        return gettext("%(team)s release %(step)s #%(number)s") % {
            "team": self.team,
            "step": self.step,
            "number": self.pk,
        }


class SequenceScore(models.Model):
    """A team's sequence over the frozen prefix 1 … step, scored when that step froze."""

    sequential = round_reference(SequentialRound, related_name="scores")
    team = team_reference()
    step = models.PositiveSmallIntegerField(_("last release scored"))
    complete = models.BooleanField(_("complete sequence"), default=False)
    results = models.JSONField(_("results"), default=dict, blank=True)
    per_person = models.TextField(_("risk per person"), blank=True)
    created_at = models.DateTimeField(_("scored at"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["sequential", "team", "step"], name="seq_score_one_per_step"
            )
        ]

    def __str__(self) -> str:
        return f"{self.team} 1…{self.step}"


class SeqTarget(models.Model):
    """A team's published sequence (attack phase): the files other teams download."""

    sequential = round_reference(SequentialRound, related_name="targets")
    team = team_reference()
    files = models.JSONField(
        _("published files"), default=dict, help_text=_("published file name → CSV text")
    )
    map_n = models.FloatField(_("accuracy of the built-in MAP_N attacker"), null=True)
    map_a = models.FloatField(_("accuracy of the built-in MAP_A attacker"), null=True)

    class Meta:
        constraints = [one_per_team("sequential", name="seq_target_one_per_team")]

    def __str__(self) -> str:
        return gettext("%(team)s (target)") % {"team": self.team}


class SeqAttack(KeptUpload, VoidableUpload):
    """A ``pid,guess`` file of one team on another team's sequence (a ``KeptUpload``; the
    organizers may void it: ``VoidableUpload``)."""

    UPLOAD_FOLDER = "sequential"
    JOB_RELATED = ("target__team",)

    STATUS_LABELS: ClassVar[dict] = SCORED_UPLOAD_LABELS

    target = models.ForeignKey(
        SeqTarget, on_delete=models.CASCADE, related_name="attacks", verbose_name=_("target")
    )
    team = team_reference()
    accuracy = models.FloatField(_("accuracy"), null=True)

    class Meta(KeptUpload.Meta):
        verbose_name = _("attack")
        verbose_name_plural = _("attacks")

    def __str__(self) -> str:
        return f"{self.team} → {self.target.team} #{self.pk}"
