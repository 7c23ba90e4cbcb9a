"""A round's data choice: the data packs a round offers (``DataChoice``) and the one each team
picked (``TeamDataChoice``). Written by ``pwscup.competitions.choice_services``, read by
``pwscup.competitions.choice_selectors`` (a kind that draws from the data reads the team's
pack there). Imported by ``models.py``."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_fields import round_reference
from pwscup.core.languages import in_reader_language
from pwscup.core.model_fields import account_reference

CHOICE_KEY_MAX_LENGTH = 32


class DataChoice(models.Model):
    """One data pack a round offers (PWSCup 2022: six datasets; 2024: three; 2025: three
    populations); ``key`` names it to the kind (a scorer pack's ``choice``, ``context.json``)."""

    round = round_reference(related_name="data_choices")
    key = models.SlugField(_("key"), max_length=CHOICE_KEY_MAX_LENGTH)
    label = models.CharField(_("label (English)"), max_length=200)
    label_ja = models.CharField(_("label (Japanese)"), max_length=200, blank=True)
    order = models.PositiveIntegerField(_("order"), default=1)

    class Meta:
        ordering = ["round", "order", "id"]
        unique_together = [("round", "key")]
        verbose_name = _("data choice")
        verbose_name_plural = _("data choices")

    def __str__(self) -> str:
        return f"{self.round_id} / {self.key}"

    @property
    def label_shown(self) -> str:
        """The label in the reader's language (the English one when no Japanese is given)."""
        return in_reader_language(self.label, self.label_ja)


class TeamDataChoice(models.Model):
    """The pack a team picked in a round; ``locked`` from its first upload in the round on
    (then only an organizer changes it, with an audit line)."""

    round = round_reference(related_name="+")
    team = models.ForeignKey(
        "accounts.Team", on_delete=models.CASCADE, related_name="+", verbose_name=_("team")
    )
    # PROTECT: a choice a team has picked cannot be removed (``choices_set`` says which team).
    choice = models.ForeignKey(
        DataChoice, on_delete=models.PROTECT, related_name="picks", verbose_name=_("data choice")
    )
    chosen_at = models.DateTimeField(_("chosen at"))
    chosen_by = account_reference(blank=True, verbose_name=_("chosen by"))
    locked = models.BooleanField(_("locked"), default=False)

    class Meta:
        unique_together = [("round", "team")]
        verbose_name = _("team's data choice")
        verbose_name_plural = _("teams' data choices")

    def __str__(self) -> str:
        return f"{self.round_id} / {self.team_id}: {self.choice_id}"
