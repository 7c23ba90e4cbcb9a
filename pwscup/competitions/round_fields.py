"""The round a row belongs to, declared once: a kind's part of a round, a row of that part
(a release, a target, a draw...), a row that can also belong to its whole competition (an
award, a presentation window). Each is named "round" in every page and language."""

from django.db import models
from django.utils.translation import gettext_lazy as _


def round_reference(
    to="competitions.Round", *, related_name: str = "+", on_delete=models.CASCADE, **options
) -> models.ForeignKey:
    """The round (or a kind's part of it, ``to``: ``SyntheticRound``...) a row belongs to,
    deleted with it unless ``on_delete`` says otherwise. ``options``: ``null``,
    ``help_text`` and the like."""
    return models.ForeignKey(
        to,
        on_delete=on_delete,
        related_name=related_name,
        verbose_name=_("round"),
        **options,
    )


def round_part(*, related_name: str, **options) -> models.OneToOneField:
    """A kind's part of a round (its settings and state), reached from the round as
    ``round.<related_name>``. ``options``: ``primary_key`` and the like."""
    return models.OneToOneField(
        "competitions.Round",
        on_delete=models.CASCADE,
        related_name=related_name,
        verbose_name=_("round"),
        **options,
    )


def whole_competition_round(*, related_name: str, **options) -> models.ForeignKey:
    """One round of the row's competition, or NULL: the whole competition (the forms'
    ``whole_competition_round_field``). ``options``: ``help_text`` and the like."""
    return round_reference(related_name=related_name, null=True, blank=True, **options)
