"""A kind's freeze at its release phase's close, as the kind declares it
(``RoundKind.auto_freeze``) and the core serves it (``pwscup.submissions.services.auto_freeze``,
run by Celery beat): the rounds whose release phase has closed and whose organizer asked for
it are frozen by the kind's own console action, the one the organizer's button runs."""

from collections.abc import Callable
from dataclasses import dataclass

from django import forms
from django.utils.text import capfirst


@dataclass(frozen=True)
class AutoFreeze:
    """``model``: the kind's row of the round (an ``AutoFreezeRow``: ``auto_freeze``,
    ``auto_freeze_refusal``, with ``round``, ``frozen_at`` and its ``targets``);
    ``release_kind``: its release phase's ``Phase.kind``; ``releases(row)``: the queryset of
    the round's release uploads (job rows), waited for while those accepted before the
    close are still scored; ``action``: the console action that freezes
    (``RoundKind.console_actions``)."""

    model: type
    release_kind: str
    releases: Callable
    action: str = "freeze"


def auto_freeze_field(model) -> forms.BooleanField:
    """The setting's checkbox, beside the release phase's dates on the console's forms (the
    creation form of a two-sided round and its page *Dates and limits*): named and explained
    as the field ``auto_freeze`` of ``model`` (the kind's row, or ``AutoFreezeRow``)."""
    field = model._meta.get_field("auto_freeze")
    return forms.BooleanField(
        label=capfirst(field.verbose_name), help_text=field.help_text, required=False
    )
