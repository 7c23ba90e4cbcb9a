"""A synthetic round's data: its draws (kept once drawn), the teams' releases, the frozen
targets with their built-in attacks, and the teams' membership-inference attacks.

The round's settings are ``Round.config`` (``scoring.synthetic.config``); its two windows
are the core's phases: the release phase (key ``release``) and the attack
phase (key ``attack``)."""

import secrets
from typing import ClassVar

from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.models import private_upload_path
from pwscup.competitions.round_fields import round_part, round_reference
from pwscup.core.model_fields import one_per_team
from pwscup.submissions.messages import CatalogueMessages
from pwscup.submissions.models import (
    SCORED_UPLOAD_LABELS,
    AutoFreezeRow,
    JobState,
    KeptUpload,
    Status,
    VoidableUpload,
)
from scoring.synthetic.errors import render_synth
from scoring.synthetic.messages import SYN_MESSAGES


def _new_seed() -> int:
    return secrets.randbits(62)


class SynthMessages(CatalogueMessages):
    """A job row whose failure may be a ``syn.*`` code (``scoring.synthetic.messages``)."""

    catalogue = SYN_MESSAGES
    render_code = staticmethod(render_synth)


class SyntheticRound(AutoFreezeRow):
    """The synthetic part of a round: the secret seed, the shared draws (holdout ``H`` and
    auxiliary table ``A``, as 0-based rows of the original table), the freeze and the
    publication."""

    round = round_part(related_name="synthetic")
    secret_seed = models.BigIntegerField(_("secret seed"), default=_new_seed, editable=False)
    holdout = models.JSONField(_("holdout (row numbers)"), default=list, editable=False)
    aux = models.JSONField(_("auxiliary table (row numbers)"), default=list, editable=False)
    frozen_at = models.DateTimeField(_("frozen at"), null=True, blank=True)
    results_published = models.BooleanField(_("results published"), default=False)

    class Meta:
        verbose_name = _("synthetic round")
        verbose_name_plural = _("synthetic rounds")

    def __str__(self) -> str:
        return str(self.round)


class SynPopulation(models.Model):
    """The population ``P`` of one of the round's data packs (``competitions.DataChoice``,
    by its key, as the scorer's packs name theirs): the organizer's CSV kept as uploaded
    (UTF-8; ``source`` when converted from another encoding), checked against the round's
    settings and columns, with its own holdout ``H`` and auxiliary table ``A`` (0-based rows
    of this table, drawn from the round's secret seed and the pack's key). A team whose pack
    is ``choice_key`` draws its rows from it; a round offering no choice has none."""

    synthetic = round_reference(SyntheticRound, related_name="populations")
    choice_key = models.CharField(_("data pack"), max_length=32)
    file = models.FileField(_("population (CSV)"), upload_to=private_upload_path)
    source = models.FileField(
        _("population as uploaded"), upload_to=private_upload_path, blank=True
    )
    encoding = models.CharField(_("converted from"), max_length=32, blank=True)
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    sha256 = models.CharField("SHA-256", max_length=64)
    rows = models.PositiveIntegerField(_("number of rows"), default=0)
    holdout = models.JSONField(_("holdout (row numbers)"), default=list, editable=False)
    aux = models.JSONField(_("auxiliary table (row numbers)"), default=list, editable=False)
    uploaded_at = models.DateTimeField(_("uploaded at"), auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["synthetic", "choice_key"], name="syn_population_one_per_pack"
            )
        ]
        ordering = ["synthetic", "choice_key"]
        verbose_name = _("population")
        verbose_name_plural = _("populations")

    def __str__(self) -> str:
        return f"{self.synthetic} / {self.choice_key}"


class TeamDraw(models.Model):
    """One team's rows of the original table (spec §1), drawn once from the round's seed and
    kept: members ``T_X``, non-members ``N_X`` and the challenge set (id ``i`` is row
    ``challenge[i-1]``, label ``labels[i-1]``, in the dev half where ``dev[i-1]``)."""

    synthetic = round_reference(SyntheticRound, related_name="draws")
    team = team_reference()
    members = models.JSONField(_("member rows"), default=list)
    nonmembers = models.JSONField(_("non-member rows"), default=list)
    challenge = models.JSONField(_("challenge set rows"), default=list)
    labels = models.JSONField(_("challenge set labels"), default=list)
    dev = models.JSONField(_("in the dev half of the challenge set"), default=list)
    disjoint = models.BooleanField(_("disjoint from the other teams' rows"), default=True)
    # The data pack whose population the rows are of (``SynPopulation.choice_key``); ``""``:
    # the round's own original (a round offering no choice, or a team drawn before it did).
    choice_key = models.CharField(_("data pack"), max_length=32, blank=True, default="")
    # The members' own model's AUC on the holdout (U_ML's denominator): it depends on the
    # draw only, so it is computed once, by the first release scored.
    auc_train = models.FloatField(_("AUC of a model trained on the members"), null=True, blank=True)
    created_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    class Meta:
        constraints = [one_per_team("synthetic", name="syn_draw_one_per_team")]
        ordering = ["created_at", "pk"]
        verbose_name = _("team draw")
        verbose_name_plural = _("team draws")

    def __str__(self) -> str:
        return f"{self.synthetic} / {self.team}"


class SynRelease(SynthMessages, KeptUpload, VoidableUpload):
    """One uploaded ``teamX_synthetic.csv``, kept as uploaded, with its scores (spec §2); the
    organizers may void it (``pwscup.submissions.voids``: it then counts nowhere)."""

    UPLOAD_FOLDER = "synthetic"
    STATUS_LABELS: ClassVar[dict] = SCORED_UPLOAD_LABELS

    synthetic = round_reference(SyntheticRound, related_name="releases")
    team = team_reference()
    rows = models.PositiveIntegerField(_("number of rows"), default=0)
    scores = models.JSONField(_("scores"), default=dict, blank=True)
    selected = models.BooleanField(_("selected as final"), default=False)
    elapsed_ms = models.PositiveIntegerField(_("time taken (ms)"), default=0)

    class Meta(KeptUpload.Meta):
        indexes = [models.Index(fields=["synthetic", "team", "status"])]
        verbose_name = _("synthetic release")
        verbose_name_plural = _("synthetic releases")

    def __str__(self) -> str:
        return gettext("%(team)s release #%(number)s") % {"team": self.team, "number": self.number}


class SynTarget(SynthMessages, JobState):
    """A team's frozen release, published to the other teams with its challenge set; its
    job scores the built-in attacks (``builtin``: name → ``{"dev": …, "final": …,
    "final_roc": …}``)."""

    JOB_RELATED = ("release",)
    STATUS_LABELS: ClassVar[dict] = {
        Status.RUNNING: _("Built-in attacks running"),
        Status.FINISHED: _("Built-in attacks scored"),
    }

    synthetic = round_reference(SyntheticRound, related_name="targets")
    team = team_reference()
    release = models.ForeignKey(
        SynRelease,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("synthetic release"),
    )
    builtin = models.JSONField(_("built-in attacks"), default=dict, blank=True)

    class Meta(JobState.Meta):
        constraints = [one_per_team("synthetic", name="syn_target_one_per_team")]
        verbose_name = _("target")
        verbose_name_plural = _("targets")

    def __str__(self) -> str:
        return gettext("%(team)s (target)") % {"team": self.team}


class SynAttack(SynthMessages, KeptUpload, VoidableUpload):
    """A team's ``teamX_mia_teamY.csv`` on another team's target: its scores on the dev
    half (shown live) and on the final half (hidden until the results are published); the
    organizers may void it, as a release."""

    UPLOAD_FOLDER = "synthetic"
    JOB_RELATED = ("target__team",)
    STATUS_LABELS: ClassVar[dict] = SCORED_UPLOAD_LABELS

    target = models.ForeignKey(
        SynTarget, on_delete=models.CASCADE, related_name="attacks", verbose_name=_("target")
    )
    team = team_reference()
    dev = models.JSONField(_("scores on the dev half"), default=dict, blank=True)
    final = models.JSONField(_("scores on the final half"), default=dict, blank=True)
    # The final half's ROC curve (``fpr``, ``tpr``): hidden with the final half's scores.
    final_roc = models.JSONField(_("ROC curve on the final half"), default=dict, blank=True)

    class Meta(KeptUpload.Meta):
        indexes = [models.Index(fields=["target", "team", "status"])]
        verbose_name = _("membership-inference attack")
        verbose_name_plural = _("membership-inference attacks")

    def __str__(self) -> str:
        return f"{self.team} → {self.target.team} #{self.number}"
