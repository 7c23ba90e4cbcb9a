"""The competition's standings settings: which rounds count, with which weight, which of
each round's rankings, and the rule that combines them (``pwscup.competitions.standings``
computes the table; nothing of it is stored). A competition may have several standings, its
divisions (部門: an anonymization and an attack division, PWSCup 2021), each with its key and
name. A division may also count other divisions' ranks (``StandingsDivision``: PWSCup 2023's
grand ranking, the sum of the two phases' ranks). Imported by ``models.py``."""

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.round_fields import round_reference
from pwscup.core.languages import in_reader_language
from scoring.standings import INVERSE_RANK_SUM, WEIGHTED_RANK, WEIGHTED_SCORE

DIVISION_NAME_MAX_LENGTH = 200


class Standings(models.Model):
    """One division of the competition's standings (none: the competition shows no
    standings). The first (lowest ``order``) is the one the addresses without a key show."""

    class Rule(models.TextChoices):
        WEIGHTED_RANK = WEIGHTED_RANK, _("Weighted sum of ranks (lower is better)")
        INVERSE_RANK_SUM = INVERSE_RANK_SUM, _("Weighted inverse of the rank sums")
        WEIGHTED_SCORE = WEIGHTED_SCORE, _("Weighted sum of scores")

    competition = models.ForeignKey(
        "competitions.Competition",
        on_delete=models.CASCADE,
        related_name="standings_divisions",
        verbose_name=_("competition"),
    )
    # Its address in the competition (/c/<competition>/standings/<key>/).
    key = models.SlugField(_("key"), max_length=50)
    # Named as awards are (an English and a Japanese name); both empty: "Standings".
    name_en = models.CharField(_("name (English)"), max_length=DIVISION_NAME_MAX_LENGTH, blank=True)
    name_ja = models.CharField(
        _("name (Japanese)"), max_length=DIVISION_NAME_MAX_LENGTH, blank=True
    )
    order = models.PositiveSmallIntegerField(_("order"), default=0)
    rule = models.CharField(_("combination rule"), max_length=32, choices=Rule.choices)
    updated_at = models.DateTimeField(_("updated"), auto_now=True)

    class Meta:
        ordering = ["competition", "order", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["competition", "key"], name="standings_key_unique_in_competition"
            )
        ]
        verbose_name = _("standings")
        verbose_name_plural = _("standings")

    def __str__(self) -> str:
        return f"{self.competition} / {self.key} / {self.get_rule_display()}"

    @property
    def name(self) -> str:
        """The division's name in the reader's language; "Standings" when it has none."""
        return in_reader_language(self.name_en, self.name_ja) or str(_("Standings"))


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


class StandingsDivision(models.Model):
    """Another division of the competition whose rank counts in this one, with its weight
    (PWSCup 2023: the grand ranking counts the anonymization and the attack divisions, 1
    each). One level only: a division that counts divisions is never counted itself
    (``standings_services`` refuses it), so no table waits on a table that waits on it.
    A counted division is not removed while it is counted (the service refuses, naming the
    division that counts it; ``RESTRICT`` keeps any other path from removing it alone, while
    the whole competition's deletion still takes every division with it)."""

    standings = models.ForeignKey(
        Standings,
        on_delete=models.CASCADE,
        related_name="counted_divisions",
        verbose_name=_("standings"),
    )
    counted = models.ForeignKey(
        Standings,
        on_delete=models.RESTRICT,
        related_name="counted_by",
        verbose_name=_("counted division"),
    )
    weight = models.DecimalField(
        _("weight"), max_digits=9, decimal_places=4, validators=[MinValueValidator(0)]
    )

    class Meta:
        ordering = ["counted__order", "counted__id"]
        unique_together = [("standings", "counted")]
        verbose_name = _("division counted in the standings")
        verbose_name_plural = _("divisions counted in the standings")

    def __str__(self) -> str:
        return f"{self.counted.key} ×{self.weight}"
