"""A competition's results archive: one ZIP per published version, kept for good."""

import secrets

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.models import Competition
from pwscup.core.model_fields import account_reference


def archive_path(instance, filename: str) -> str:
    # Private (never served by the web server), unguessable, and never reused: versions are
    # kept side by side and a name is written once (the bucket's file_overwrite is off).
    return f"private/archives/{secrets.token_hex(8)}-{filename}"


class ResultsArchive(models.Model):
    """Version ``version`` of a competition's results archive: the ZIP as published, its
    SHA-256 and size, and which secrets the organizer ticked (``pwscup.kinds.archives``).
    Never changed once written; a new publication is a new version.

    Two variants of each version, built together from the same round outcomes: ``file``
    holds the published slides and policy texts, for those who may see them
    (``pwscup.presentations.selectors.published_slides_visible_to``); ``public_file`` is
    the same without them, for everyone else who sees the competition. A version published
    before the variants existed has no ``public_file``: only the former may download it."""

    competition = models.ForeignKey(
        Competition,
        on_delete=models.CASCADE,
        related_name="results_archives",
        verbose_name=_("competition"),
    )
    version = models.PositiveIntegerField(_("version"))
    file = models.FileField(_("archive (ZIP)"), upload_to=archive_path, max_length=300)
    sha256 = models.CharField("SHA-256", max_length=64)
    size = models.PositiveBigIntegerField(_("size (bytes)"), default=0)
    public_file = models.FileField(
        _("archive without the slides (ZIP)"), upload_to=archive_path, max_length=300, blank=True
    )
    public_sha256 = models.CharField(
        _("SHA-256 of the archive without the slides"), max_length=64, blank=True
    )
    public_size = models.PositiveBigIntegerField(
        _("size of the archive without the slides (bytes)"), default=0
    )
    secrets = models.JSONField(
        _("secrets included"), default=list, blank=True, help_text=_("Keys of the ticked secrets.")
    )
    created_by = account_reference(blank=True, verbose_name=_("published by"))
    created_at = models.DateTimeField(_("published at"), default=timezone.now, editable=False)

    class Meta:
        ordering = ["competition", "-version"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "version"], name="results_archive_version_per_competition"
            )
        ]
        verbose_name = _("results archive")
        verbose_name_plural = _("results archives")

    def __str__(self) -> str:
        return f"{self.competition} v{self.version}"

    @property
    def filename(self) -> str:
        return f"{self.competition.slug}-results-v{self.version}.zip"

    @property
    def public_filename(self) -> str:
        return f"{self.competition.slug}-results-v{self.version}-no-slides.zip"
