"""Presentation windows and the slides teams upload in them.

A window belongs to a competition, and to one of its rounds (of any kind) or to none (the
competition's own presentations, at most one). Each upload of slides is one ``Slides`` row
with the fields every team upload keeps (``KeptUpload``: the file as uploaded,
its SHA-256, size, the team's number, status, dates) and the core's job state
(``pwscup.submissions.models.JobState``: a worker checks the PDF and renders its first
page as the preview). The team's latest rendered upload is the one shown.
"""

import secrets
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.accounts.models import team_reference
from pwscup.competitions.models import Competition, UploadDates, UploadLimits
from pwscup.competitions.round_fields import whole_competition_round
from pwscup.core.model_fields import account_reference
from pwscup.core.text_limits import POLICY_MAX_LENGTH
from pwscup.core.time_zones import default_time_zone
from pwscup.submissions.models import KeptUpload, Status


def slides_max_bytes_default() -> int:
    """A new window's cap: the platform's ceiling (``PWSCUP_SLIDES_MAX_BYTES``)."""
    return settings.PWSCUP_SLIDES_MAX_BYTES


def slides_path(instance, filename: str) -> str:
    """Where slides were kept before ``kept_upload_path`` (an old migration names it)."""
    return f"private/slides/{timezone.now():%Y/%m/%d}/{secrets.token_hex(8)}-{filename}"


def preview_path(instance, filename: str) -> str:
    return f"private/slides/previews/{timezone.now():%Y/%m/%d}/{secrets.token_hex(8)}-{filename}"


class PresentationWindow(UploadDates, UploadLimits):
    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="presentation_windows",
        verbose_name=_("competition"),
    )
    round = whole_competition_round(
        related_name="presentation_windows",
        help_text=_("Empty: the presentations of the whole competition."),
    )
    title = models.CharField(_("title"), max_length=200, blank=True)
    # The window's dates are typed and shown in the round's time zone; a competition-wide
    # window has no round, and uses this one.
    time_zone = models.CharField(_("time zone"), max_length=64, default=default_time_zone)
    max_bytes = models.PositiveBigIntegerField(
        _("largest PDF (bytes)"), default=slides_max_bytes_default
    )
    published_at = models.DateTimeField(_("published at"), null=True, blank=True)
    published_by = account_reference(blank=True, verbose_name=_("published by"))
    created_at = models.DateTimeField(_("created"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["competition", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "round"], name="one_presentation_window_per_round"
            ),
            models.UniqueConstraint(
                fields=["competition"],
                condition=Q(round__isnull=True),
                name="one_competition_wide_presentation_window",
            ),
        ]
        verbose_name = _("presentation window")
        verbose_name_plural = _("presentation windows")

    def __str__(self) -> str:
        return f"{self.competition} / {self.name}"

    @property
    def zone(self) -> str:
        """The time zone of the window's dates and daily limit: the round's, if any."""
        return self.round.timezone if self.round_id else self.time_zone

    @property
    def name(self) -> str:
        """How pages name the window: its title, else its round's name, else a plain word."""
        if self.title:
            return self.title
        if self.round_id:
            return self.round.name
        return str(_("Presentations"))

    @property
    def is_published(self) -> bool:
        return self.published_at is not None


class Slides(KeptUpload):
    """One upload of a team's slides (a PDF), kept as uploaded, and its preview's job."""

    UPLOAD_FOLDER = "slides"
    STATUS_LABELS: ClassVar[dict] = {
        Status.RUNNING: _("Rendering"),
        Status.FINISHED: _("Ready"),
        Status.FAILED: _("Rejected"),
    }

    window = models.ForeignKey(
        PresentationWindow,
        on_delete=models.CASCADE,
        related_name="slides",
        verbose_name=_("presentation window"),
    )
    team = team_reference()
    anonymization_policy = models.TextField(
        _("anonymization policy"), max_length=POLICY_MAX_LENGTH, blank=True
    )
    attack_policy = models.TextField(_("attack policy"), max_length=POLICY_MAX_LENGTH, blank=True)
    # The first page as a PNG about 800 pixels wide, rendered by the worker.
    preview = models.FileField(_("preview"), upload_to=preview_path, max_length=300, blank=True)

    class Meta(KeptUpload.Meta):
        indexes = [models.Index(fields=["window", "team", "status"])]
        verbose_name = _("slides")
        verbose_name_plural = _("slides")

    def __str__(self) -> str:
        return gettext("%(team)s slides %(label)s") % {"team": self.team, "label": self.label}
