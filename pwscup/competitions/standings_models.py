"""The competition's standings settings: which rounds count, with which weight, which of
each round's rankings, and the rule that combines them (``pwscup.competitions.standings``
computes the table; nothing of it is stored). Imported by ``models.py``."""

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_fields import round_reference
from scoring.standings import INVERSE_RANK_SUM, WEIGHTED_RANK, WEIGHTED_SCORE


class Standings(models.Model):
    """One per competition that has standings (none: the competition shows no standings)."""

    class Rule(models.TextChoices):
        WEIGHTED_RANK = WEIGHTED_RANK, _("Weighted sum of ranks (lower is better)")
        INVERSE_RANK_SUM = INVERSE_RANK_SUM, _("Weighted inverse of the rank sums")
        WEIGHTED_SCORE = WEIGHTED_SCORE, _("Weighted sum of scores")

    competition = models.OneToOneField(
        "competitions.Competition",
        on_delete=models.CASCADE,
        related_name="standings",
        verbose_name=_("competition"),
    )
    rule = models.CharField(_("combination rule"), max_length=32, choices=Rule.choices)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        verbose_name = _("standings")
        verbose_name_plural = _("standings")

    def __str__(self) -> str:
        return f"{self.competition} / {self.get_rule_display()}"


class StandingsRound(models.Model):
    """A round that counts in the standings: its weight and the keys of its kind's rankings
    that count (``RoundKind.ranking_keys``), summed within the round."""

    standings = models.ForeignKey(
        Standings, on_delete=models.CASCADE, related_name="entries", verbose_name=_("standings")
    )
    round = round_reference(related_name="standings_entries")
    weight = models.DecimalField(
        _("weight"), max_digits=9, decimal_places=4, validators=[MinValueValidator(0)]
    )
    # A list of the kind's ranking keys (["anonymization", "attack"]); the console edits it
    # with tick boxes, never as JSON.
    rankings = models.JSONField(_("rankings"), default=list)

    class Meta:
        ordering = ["round__order", "round__id"]
        unique_together = [("standings", "round")]
        verbose_name = _("round in the standings")
        verbose_name_plural = _("rounds in the standings")

    def __str__(self) -> str:
        return f"{self.round} ×{self.weight}"
