"""A round scored by the organizer's program: the program's versions, the round's data packs,
the teams' slots, the releases, the frozen targets and the attacks.

The round's settings are ``Round.config`` (``scoring.scorer.round_config``); its two windows
are the core's phases: the release phase (key ``release``) and the attack
phase (key ``attack``). Scores are stored exactly as the program wrote them in its
``scores.json`` (a JSON number keeps its digits), with the program version that computed
them."""

import datetime as dt
from typing import ClassVar

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.round_fields import round_part, round_reference
from pwscup.core.model_fields import account_reference, one_per_team
from pwscup.submissions.models import (
    SCORED_UPLOAD_LABELS,
    AutoFreezeRow,
    JobState,
    KeptUpload,
    Status,
    VoidableUpload,
    kept_upload_path,
)


class ScorerRound(AutoFreezeRow):
    """The scorer part of a round: the freeze and the publication."""

    round = round_part(related_name="scorer")
    frozen_at = models.DateTimeField(_("frozen at"), null=True, blank=True)
    results_published = models.BooleanField(_("results published"), default=False)
    # The hidden packs a bundle left out (exported without its hidden data), as ``[role,
    # choice]`` pairs: until each has a pack again, uploads are refused and nothing is
    # scored (``selectors.hidden_packs_missing``).
    hidden_awaited = models.JSONField(_("hidden data awaited"), default=list, blank=True)

    class Meta:
        verbose_name = _("scorer round")
        verbose_name_plural = _("scorer rounds")

    def __str__(self) -> str:
        return str(self.round)


class ProgramVersion(JobState):
    """One upload of the organizer's scoring program (a ZIP), numbered 1, 2, … in the round.

    Its job builds the program's environment on a worker (``build_log``); the newest version
    whose build finished is the one every run uses (``selectors.current_program``). The
    metadata read when it was uploaded is kept (``metadata``: the commands, requirements,
    public files, truth mount)."""

    UPLOAD_FOLDER = "scorer-programs"
    STATUS_LABELS: ClassVar[dict] = {
        Status.QUEUED: _("Waiting for its build"),
        Status.RUNNING: _("Building its environment"),
        Status.FINISHED: _("Ready"),
        Status.FAILED: _("Build failed"),
    }

    scorer = round_reference(ScorerRound, related_name="programs")
    version = models.PositiveIntegerField(_("version"))
    file = models.FileField(_("file"), upload_to=kept_upload_path, max_length=300)
    original_filename = models.CharField(_("file name"), max_length=255, blank=True)
    sha256 = models.CharField("SHA-256", max_length=64)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    metadata = models.JSONField(_("metadata"), default=dict, blank=True)
    build_log = models.TextField(_("build log"), blank=True)
    uploaded_by = account_reference(blank=True, verbose_name=_("uploaded by"))
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta(JobState.Meta):
        constraints = [
            models.UniqueConstraint(fields=["scorer", "version"], name="scorer_program_version")
        ]
        ordering = ["-version"]
        verbose_name = _("scoring program version")
        verbose_name_plural = _("scoring program versions")

    def __str__(self) -> str:
        return f"v{self.version}"

    @property
    def label(self) -> str:
        return f"v{self.version}"


def run_by() -> models.ForeignKey:
    """The version of the program a run used (an upload's scoring, a ranking): kept, NULL,
    when that version is deleted."""
    return models.ForeignKey(
        ProgramVersion,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("scoring program version"),
    )


class ProgramBuild(models.Model):
    """A version's environment on one worker host: each host builds it on its first use
    (the version's job on the host that took it, a run on any other), and records here its
    state and its log (``services.runs.program_environment``); the console lists them."""

    class State(models.TextChoices):
        BUILDING = "building", _("Building")
        READY = "ready", _("Ready")
        FAILED = "failed", _("Build failed")

    version = models.ForeignKey(
        ProgramVersion,
        on_delete=models.CASCADE,
        related_name="builds",
        verbose_name=_("scoring program version"),
    )
    host = models.CharField(_("host"), max_length=255)
    state = models.CharField(
        _("state"), max_length=10, choices=State.choices, default=State.BUILDING
    )
    log = models.TextField(_("build log"), blank=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["version", "host"], name="scorer_build_one_per_host")
        ]
        ordering = ["host"]
        verbose_name = _("program build on a host")
        verbose_name_plural = _("program builds on hosts")

    def __str__(self) -> str:
        return gettext("%(version)s on %(host)s") % {"version": self.version, "host": self.host}


def pack_file_name(role: str, choice: str = "") -> str:
    """A data pack's file name in a bundle and in the messages naming it: ``<role>.zip``,
    or ``<choice>.<role>.zip`` for a pack of one data choice."""
    return f"{choice}.{role}.zip" if choice else f"{role}.zip"


class DataPack(models.Model):
    """A ZIP of the round's data, by role (and data choice); the newest of each counts.

    * ``reference``: the scorer's hidden data, mounted at ``input/ref`` in every run; never
      shown to a team.
    * ``truth``: a second hidden folder mounted where the program's metadata says
      (``truth_mount``); never shown to a team.
    * ``public``: what every team downloads on the Data tab.
    * ``slots``: a folder per team slot (``team_01/…``), each team downloading its own.
    """

    UPLOAD_FOLDER = "scorer-data"

    class Role(models.TextChoices):
        REFERENCE = "reference", _("Reference data (hidden, for the scorer)")
        TRUTH = "truth", _("Truth folder (hidden, for the scorer)")
        PUBLIC = "public", _("Files for every team")
        SLOTS = "slots", _("A folder per team slot")

    HIDDEN: ClassVar[tuple] = (Role.REFERENCE, Role.TRUTH)

    scorer = round_reference(ScorerRound, related_name="packs")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices)
    # The round's data choice this pack is for (``DataChoice.key``); empty: the pack of every
    # team whose choice has no pack of its own (and of a round offering no choice).
    choice = models.CharField(_("data choice"), max_length=32, blank=True, default="")
    file = models.FileField(_("file"), upload_to=kept_upload_path, max_length=300)
    original_filename = models.CharField(_("file name"), max_length=255, blank=True)
    sha256 = models.CharField("SHA-256", max_length=64)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    members = models.JSONField(_("files in the ZIP"), default=list, blank=True)
    uploaded_by = account_reference(blank=True, verbose_name=_("uploaded by"))
    created_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("data pack")
        verbose_name_plural = _("data packs")

    def __str__(self) -> str:
        return f"{self.get_role_display()} ({self.original_filename})"


def folder(slot: int) -> str:
    """A slot's folder in the slots pack: ``team_01`` for slot 1."""
    return f"team_{slot:02d}"


class TeamSlot(models.Model):
    """The slot a team plays in (1, 2, …): its folder ``team_NN/`` of the slots pack and the
    ``slot`` of the program's ``context.json``. Given as teams register, kept."""

    scorer = round_reference(ScorerRound, related_name="slots")
    team = team_reference()
    slot = models.PositiveIntegerField(_("slot"))

    class Meta:
        constraints = [
            one_per_team("scorer", name="scorer_slot_one_per_team"),
            models.UniqueConstraint(fields=["scorer", "slot"], name="scorer_slot_unique"),
        ]
        ordering = ["slot"]
        verbose_name = _("team slot")
        verbose_name_plural = _("team slots")

    def __str__(self) -> str:
        return f"{self.team} → {self.folder}"

    @property
    def folder(self) -> str:
        return folder(self.slot)


class SlotSalt(models.Model):
    """The round's committed salt (docs/scorer.md, "Cohort assignment by a committed salt"):
    its SHA-256 (``commitment``) public from the commitment on, the salt itself the
    organizers' until they reveal it. ``assigned``: ``[team slug, slot]`` as the slots were
    last assigned from it (in the salt's order); ``hand_changes``: the slots set since by hand
    or given to a team registered since (``{"team", "slot", "at", "registered"}``)."""

    scorer = models.OneToOneField(
        ScorerRound, on_delete=models.CASCADE, related_name="slot_salt", verbose_name=_("round")
    )
    salt = models.CharField(_("salt"), max_length=128)
    commitment = models.CharField(_("commitment (SHA-256 of the salt)"), max_length=64)
    committed_at = models.DateTimeField(_("committed at"))
    committed_by = account_reference(blank=True, verbose_name=_("committed by"))
    assigned_at = models.DateTimeField(_("slots assigned at"), null=True, blank=True)
    assigned = models.JSONField(_("slots assigned from the salt"), default=list, blank=True)
    hand_changes = models.JSONField(_("slots changed since"), default=list, blank=True)
    revealed_at = models.DateTimeField(_("revealed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("committed salt")
        verbose_name_plural = _("committed salts")

    def __str__(self) -> str:
        return gettext("%(round)s salt %(commitment)s") % {
            "round": self.scorer,
            "commitment": self.commitment[:12],
        }

    @property
    def changes(self) -> list[dict]:
        """``hand_changes`` as the pages show them: each moment a datetime, each slot its
        folder."""
        return [
            {
                **change,
                "at": dt.datetime.fromisoformat(change["at"]),
                "folder": folder(change["slot"]),
            }
            for change in self.hand_changes or []
        ]


class ScoredUpload(KeptUpload, VoidableUpload):
    """What a release and an attack share: the program's scores (``scores``: key → number,
    as written), its detailed page, the version that scored it and its own time."""

    UPLOAD_FOLDER = "scorer"
    STATUS_LABELS: ClassVar[dict] = {**SCORED_UPLOAD_LABELS, Status.FAILED: _("Refused")}

    scorer = round_reference(ScorerRound, related_name="%(class)ss")
    team = team_reference()
    scores = models.JSONField(_("scores"), default=dict, blank=True)
    detail = models.FileField(
        _("detailed results"), upload_to=kept_upload_path, max_length=300, blank=True
    )
    program = run_by()
    program_ms = models.PositiveIntegerField(_("program's own time (ms)"), default=0)
    elapsed_ms = models.PositiveIntegerField(_("time taken (ms)"), default=0)
    # The last lines the program printed (bounded): the organizer's to read.
    tail = models.TextField(_("program output (last lines)"), blank=True)

    class Meta(KeptUpload.Meta):
        abstract = True


class Release(ScoredUpload):
    """A team's release (its defence), kept as uploaded; ``public`` is the ZIP of what the
    program put in ``output/public`` (what attackers download once it is frozen)."""

    public = models.FileField(
        _("public files (ZIP)"), upload_to=kept_upload_path, max_length=300, blank=True
    )
    public_names = models.JSONField(_("names of the public files"), default=list, blank=True)
    selected = models.BooleanField(_("selected as final"), default=False)

    class Meta(ScoredUpload.Meta):
        indexes = [models.Index(fields=["scorer", "team", "status"])]
        verbose_name = _("release")
        verbose_name_plural = _("releases")

    def __str__(self) -> str:
        return gettext("%(team)s release #%(number)s") % {"team": self.team, "number": self.number}


class Target(models.Model):
    """A team's frozen release, published to the other teams at the freeze."""

    scorer = round_reference(ScorerRound, related_name="targets")
    team = team_reference()
    release = models.ForeignKey(
        Release, on_delete=models.CASCADE, related_name="+", verbose_name=_("release")
    )
    created_at = models.DateTimeField(_("published at"), auto_now_add=True)

    class Meta:
        constraints = [one_per_team("scorer", name="scorer_target_one_per_team")]
        ordering = ["team__name", "pk"]
        verbose_name = _("target")
        verbose_name_plural = _("targets")

    def __str__(self) -> str:
        return gettext("%(team)s (target)") % {"team": self.team}


class Attack(ScoredUpload):
    """A team's attack: on one target (``target``), or on every target at once (``target``
    empty; ``targets`` then holds the per-target scores, by the target team's slug)."""

    target = models.ForeignKey(
        Target,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="attacks",
        verbose_name=_("target"),
    )
    targets = models.JSONField(_("scores per target"), default=dict, blank=True)
    # The upload the team registers as the one that counts (a round whose ``attack_counts``
    # is ``chosen``): one per team and target, or one per team where uploads cover every one.
    selected = models.BooleanField(_("selected as the one that counts"), default=False)

    class Meta(ScoredUpload.Meta):
        indexes = [models.Index(fields=["scorer", "team", "status"])]
        verbose_name = _("attack")
        verbose_name_plural = _("attacks")

    def __str__(self) -> str:
        where = self.target.team if self.target_id else _("every target")
        return f"{self.team} → {where} #{self.number}"


class RankingRun(JobState):
    """One run of the program's ranking command (a round whose ``ranking`` is ``program``),
    asked for by the organizer: its input is every frozen release's scores and the attack
    matrix; ``teams`` is what it returned, ``{team slug: {"release": number, "attack":
    number}}``. The newest finished run ranks the round."""

    STATUS_LABELS: ClassVar[dict] = {
        Status.RUNNING: _("Ranking"),
        Status.FINISHED: _("Ranked"),
        Status.FAILED: _("Ranking failed"),
    }

    scorer = round_reference(ScorerRound, related_name="rankings")
    program = run_by()
    teams = models.JSONField(_("ranking returned"), default=dict, blank=True)
    tail = models.TextField(_("program output (last lines)"), blank=True)
    created_at = models.DateTimeField(_("requested at"), auto_now_add=True)

    class Meta(JobState.Meta):
        ordering = ["-created_at", "-pk"]
        verbose_name = _("ranking program run")
        verbose_name_plural = _("ranking program runs")

    def __str__(self) -> str:
        return gettext("%(round)s ranking #%(number)s") % {"round": self.scorer, "number": self.pk}
