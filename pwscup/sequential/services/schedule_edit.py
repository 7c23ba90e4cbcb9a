"""An organizer's edit of a sequential round's release closes and upload limits after its
creation (the round's console page *Dates and limits*): the closes are checked as at the
creation (``schedule_normalise``: one per release, each after the one before, dates the
platform accepts), a frozen release keeps its close, the round's ranking version is bumped
and the changed fields are recorded as the round's edit."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import ranking_version_bump, round_audit_record
from pwscup.competitions.windows import same_minute
from pwscup.sequential.models import SequentialRound
from pwscup.sequential.services.rounds import schedule_normalise

# The settings of the round's row the page changes besides the closes.
EDITED = (
    "auto_freeze",
    "daily_limit",
    "total_limit",
    "attack_daily_limit",
    "attack_total_limit",
    "attack_target_limit",
)


def frozen_closes_errors(*, sequential: SequentialRound, closes: list[dt.datetime]) -> list[str]:
    """A message per frozen release whose close ``closes`` moves (or removes): its uploads
    are final, its window is history. A frozen release that had no close may get one (the
    order of the closes may need it)."""
    errors = []
    for step in range(1, sequential.frozen_steps + 1):
        before = sequential.close_of(step)
        after = closes[step - 1] if len(closes) >= step else None
        if before is not None and not same_minute(before, after):
            errors.append(_("Release %(j)s is frozen: its close can no longer move.") % {"j": step})
    return errors


def closes_changed(sequential: SequentialRound, closes: list[dt.datetime]) -> bool:
    """Whether ``closes`` differ from the stored ones (to the minute, as the page shows)."""
    stored = [sequential.close_of(step) for step in range(1, len(sequential.step_closes) + 1)]
    return len(stored) != len(closes) or not all(map(same_minute, stored, closes))


def schedule_edit(
    *,
    sequential: SequentialRound,
    user,
    step_closes=None,
    first_close=None,
    step_length=None,
    **settings,
) -> list[str]:
    """Save an organizer's closes (``step_closes``, or ``first_close`` and ``step_length``,
    read as ``schedule_set`` reads them; neither: no deadlines) and ``settings`` (any of
    ``EDITED``; those not given are kept) of ``sequential`` in one transaction. Raises a
    ``ValidationError`` keyed by the field (``step_closes``, ``step_length``) as the
    creation's check does, and on ``step_closes`` for a frozen release's close moved.
    Returns the changed fields (none: nothing saved)."""
    unknown = set(settings) - set(EDITED)
    if unknown:
        raise TypeError(f"schedule_edit: not a setting of the page: {sorted(unknown)}")
    with transaction.atomic():
        # Bumped before the round's row is locked, as a freeze does (``ranking_version_bump``).
        ranking_version_bump(round_ids=[sequential.round_id])
        sequential = (
            SequentialRound.objects.select_for_update()
            .select_related("round")
            .get(pk=sequential.pk)
        )
        closes = schedule_normalise(
            sequential=sequential,
            closes=step_closes,
            first_close=first_close,
            step_length=step_length,
        )
        if errors := frozen_closes_errors(sequential=sequential, closes=closes):
            raise ValidationError({"step_closes": errors})
        changed = ["step_closes"] if closes_changed(sequential, closes) else []
        changed += [name for name, value in settings.items() if getattr(sequential, name) != value]
        if not changed:
            transaction.set_rollback(True)  # the bump too: nothing changed
            return []
        sequential.step_closes = [at.isoformat() for at in closes]
        for name, value in settings.items():
            setattr(sequential, name, value)
        sequential.save(update_fields=["step_closes", *settings])
        round_audit_record(
            user=user,
            round=sequential.round,
            action=AuditEntry.Action.ROUND_EDITED,
            fields=changed,
        )
    return changed
