"""Model fields that several apps declare alike."""

from django.conf import settings
from django.db import models


def account_reference(*, related_name: str = "+", **options) -> models.ForeignKey:
    """The account that did something to a row (uploaded, published, chose it): the row
    outlives the account, which becomes NULL when it is deleted. ``options``: ``blank``,
    ``verbose_name`` and the like."""
    return models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        related_name=related_name,
        **options,
    )


def one_per_team(owner: str, *, name: str) -> models.UniqueConstraint:
    """A round kind's row that each team has at most one of in the round's state ``owner``
    (the field naming it: a target, a draw, a slot, a master), under the constraint
    ``name``."""
    return models.UniqueConstraint(fields=[owner, "team"], name=name)
