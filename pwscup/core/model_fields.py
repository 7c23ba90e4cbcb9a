"""Model fields that several apps declare alike."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


def account_reference(*, related_name: str = "+", **options) -> models.ForeignKey:
    """The account that did something to a row (uploaded, published, chose it): the row
    outlives the account, which becomes NULL when it is deleted. Named "account" unless
    ``options`` give its role (``verbose_name=_("uploaded by")``); ``options``: ``blank``
    and the like."""
    options.setdefault("verbose_name", _("account"))
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


def limit_column(verbose_name, *, help_text=None) -> models.PositiveIntegerField:
    """An optional limit on a team's uploads in a window (per day, in total, per target),
    ``None``: no limit; what the core's upload pipeline enforces (``UploadWindow``)."""
    return models.PositiveIntegerField(
        verbose_name,
        null=True,
        blank=True,
        help_text=_("Empty: no limit.") if help_text is None else help_text,
    )
