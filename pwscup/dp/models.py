"""DP rounds, their ε ledgers and charges, and the teams' estimates.

A ledger's ``spent`` is an exact fraction ("p/q" text), changed only under the ledger's
row lock (``SELECT … FOR UPDATE``) in the transaction that draws and stores the answer, so a
charge never exists without its answer nor an answer without its charge.
"""

import json
import secrets
from typing import ClassVar

from django.db import models
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.models import UploadDates, UploadLimits
from pwscup.competitions.round_fields import round_part, round_reference
from pwscup.core.model_fields import account_reference
from pwscup.submissions.messages import CatalogueMessages
from pwscup.submissions.models import KeptUpload, Status, VoidableUpload
from scoring.dp.errors import method_text, render_dp
from scoring.dp.messages import DP_MESSAGES


def dp_private_path(instance, filename: str) -> str:
    return f"private/dp/{timezone.now():%Y/%m/%d}/{secrets.token_hex(8)}-{filename}"


class DPRound(UploadDates, UploadLimits):
    """The DP part of a round: its release window, and what is computed at the close.

    The hidden table is ``Round.original_file``, as for every kind; the configuration
    (normalised, spec §10) is in ``Round.config`` and, with its key order, in
    ``config_text``."""

    round = round_part(related_name="dp")
    # The normalised configuration as JSON text: PostgreSQL's jsonb (``Round.config``) does
    # not keep the order of an object's keys, and the attributes' order is the round order
    # (cells are row-major in it). This text is what the DP code reads.
    config_text = models.TextField(_("configuration (text)"), editable=False, default="{}")
    # ``opens_at`` and ``closes_at`` (``UploadDates``): the release phase, when queries,
    # releases and estimates are taken. ``daily_limit`` and ``total_limit``
    # (``UploadLimits``): the estimates a team may upload per level, per day and in all.
    # Set when the scores and baselines were computed after the close (once).
    scored_at = models.DateTimeField(_("scored at"), null=True, blank=True, editable=False)
    baselines = models.JSONField(_("baselines"), default=dict, blank=True, editable=False)

    class Meta:
        verbose_name = _("DP round")
        verbose_name_plural = _("DP rounds")

    def __str__(self) -> str:
        return str(self.round)

    @property
    def config(self) -> dict:
        """The configuration with its keys in the organizer's order (see ``config_text``)."""
        cached = getattr(self, "_config", None)
        if cached is None or cached[0] != self.config_text:
            cached = (self.config_text, json.loads(self.config_text))
            self._config = cached
        return cached[1]

    @property
    def level_ids(self) -> list[str]:
        return [level["id"] for level in self.config.get("levels", [])]


class Ledger(models.Model):
    """One team's ε budget at one level: the budget, what is spent, how many charges."""

    dp_round = round_reference(DPRound, related_name="ledgers")
    team = team_reference(related_name="dp_ledgers")
    level = models.CharField(_("level"), max_length=64)
    budget = models.CharField(_("budget"), max_length=64)
    spent = models.CharField(_("spent"), max_length=200, default="0")
    charges_count = models.PositiveIntegerField(_("number of charges"), default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["dp_round", "team", "level"], name="dp_ledger_one_per_team_level"
            )
        ]
        verbose_name = _("budget ledger (ε)")
        verbose_name_plural = _("budget ledgers (ε)")

    def __str__(self) -> str:
        return f"{self.team} / {self.level}"


class Charge(models.Model):
    """One accepted, answered charge: a query's answer or a release, stored, never redrawn."""

    class Kind(models.TextChoices):
        QUERY = "query", _("Query")
        RELEASE = "release", _("Batch release")

    ledger = models.ForeignKey(
        Ledger,
        on_delete=models.CASCADE,
        related_name="charges",
        verbose_name=_("budget ledger (ε)"),
    )
    number = models.PositiveIntegerField(_("charge number"))
    kind = models.CharField(_("kind"), max_length=10, choices=Kind.choices)
    request_id = models.CharField(_("request ID"), max_length=100, blank=True)
    epsilon = models.CharField(_("ε spent"), max_length=200)
    spent_after = models.CharField(_("spent after this charge"), max_length=200)
    request = models.JSONField(_("request"), default=dict)
    # Queries: cells, answer, sensitivity, lambda. Releases: rho per group, k, rows.
    reply = models.JSONField(_("reply"), default=dict)
    release_file = models.FileField(
        _("released table (CSV)"), upload_to=dp_private_path, max_length=300, blank=True
    )
    user = account_reference()
    created_at = models.DateTimeField(_("charged at"), default=timezone.now)

    class Meta:
        ordering = ["ledger", "number"]
        constraints = [
            models.UniqueConstraint(fields=["ledger", "number"], name="dp_charge_number_unique"),
            models.UniqueConstraint(
                fields=["ledger", "request_id"],
                condition=~models.Q(request_id=""),
                name="dp_charge_request_id_unique",
            ),
        ]
        verbose_name = _("charge")
        verbose_name_plural = _("charges")

    def __str__(self) -> str:
        return f"{self.ledger} #{self.number}"

    @property
    def answer_rows(self) -> list[tuple[str, float]]:
        """(cell, noisy value) pairs of a query's answer."""
        cells = [", ".join(cell) for cell in self.reply.get("cells", [])]
        return list(zip(cells, self.reply.get("answer", []), strict=False))


class Estimate(CatalogueMessages, KeptUpload, VoidableUpload):
    """A team's estimate of the workload at one level, kept as uploaded (or as built by the
    platform from a release or an answer); the last valid one (FINISHED, "valid" in the
    pages) that is not voided counts. Its scores are computed after the close only."""

    UPLOAD_FOLDER = "dp"
    SCORED_ON_CHECK = False  # scored at the close (spec §7.4)
    # A failure's ``dp.*`` code is the DP catalogue's (``CatalogueMessages``).
    catalogue = DP_MESSAGES
    render_code = staticmethod(render_dp)
    STATUS_LABELS: ClassVar[dict] = {
        Status.QUEUED: _("Being computed"),
        Status.RUNNING: _("Being checked"),
        Status.FINISHED: _("Valid"),
    }

    class Source(models.TextChoices):
        UPLOAD = "upload", _("Uploaded estimate")
        RELEASE = "release", _("Platform estimator on a release")
        ANSWER = "answer", _("Query answer")
        DECLARED_TABLE = "declared_table", _("Declared released table")
        DECLARED_COUNTS = "declared_counts", _("Declared noisy counts")

    dp_round = round_reference(DPRound, related_name="estimates")
    team = team_reference(related_name="dp_estimates")
    level = models.CharField(_("level"), max_length=64)
    source = models.CharField(
        _("made from"), max_length=20, choices=Source.choices, default=Source.UPLOAD
    )
    # The kept upload's fields (``KeptUpload``): no file, SHA-256 nor size for an estimate
    # the platform builds; the number is the team's in its level, uploads and builds alike
    # (``uploads.next_upload_number``); ``uploaded_by`` is who uploaded or asked.
    declaration = models.JSONField(_("declaration"), default=dict, blank=True)
    # The estimate as the scorer reads it: {target id: [count per cell]}.
    counts = models.JSONField(_("estimated counts"), default=dict, blank=True)
    method = models.CharField(_("method"), max_length=40, blank=True)
    estimator = models.CharField(_("estimator"), max_length=8, blank=True)
    declared = models.BooleanField(_("declared, unverified"), default=False)
    declared_epsilon = models.CharField(_("declared ε"), max_length=200, blank=True)
    plausibility = models.JSONField(_("plausibility check"), default=dict, blank=True)
    flagged = models.BooleanField(_("flagged"), default=False)
    scores = models.JSONField(_("scores"), default=dict, blank=True)

    class Meta(KeptUpload.Meta):
        verbose_name = _("estimate")
        verbose_name_plural = _("estimates")

    def __str__(self) -> str:
        return f"{self.team} / {self.level} / {self.created_at:%Y-%m-%d %H:%M}"

    @property
    def method_shown(self) -> str:
        """The method label in the reader's language (``scoring.dp.errors.method_text``)."""
        return method_text(self.method, get_language())
