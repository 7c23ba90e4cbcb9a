"""The round of a row that can also belong to its whole competition (an award, a
presentation window)."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from pwscup.competitions.models import Round


def whole_competition_round(*, related_name: str, **options) -> models.ForeignKey:
    """One round of the row's competition, or NULL: the whole competition (the forms'
    ``whole_competition_round_field``). ``options``: ``help_text`` and the like."""
    return models.ForeignKey(
        Round,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name=related_name,
        verbose_name=_("round"),
        **options,
    )
