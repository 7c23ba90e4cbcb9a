"""An organizer's edit of a sequential round's opening, release closes and upload limits
after its creation (the round's console page *Dates and limits*; the admin's page of the
round's row, which also changes its configuration): the closes are checked as at the
creation (``schedule_normalise``: one per release, each after the one before, dates the
platform accepts), a frozen release keeps its close (release 1, its opening), the
configuration is checked as at the creation and fixed once release 1 is frozen, the round's
ranking version is bumped and the changed fields are recorded as the round's edit (one line
for one save)."""

import datetime as dt

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext as _

from pwscup.competitions.models import AuditEntry, Round
from pwscup.competitions.services import ranking_version_bump, round_audit_record
from pwscup.competitions.windows import same_minute
from pwscup.sequential.models import SequentialRound
from pwscup.sequential.services.rounds import (
    LIMITS,
    attack_close_normalise,
    opening_normalise,
    schedule_normalise,
    sequential_config_validate,
)

# The settings of the round's row the page changes besides the closes.
EDITED = ("auto_freeze", *LIMITS)
# The round row's fields ``schedule_edit`` takes under their own names: what the admin's
# form of the row edits (besides the configuration), each passed on as the form cleans it.
ROW_FIELDS = ("opens_at", "step_closes", "attack_closes_at", *EDITED)
# ``schedule_edit``'s ``attack_closes_at``, ``opens_at`` or ``config`` when the page does not
# show it: kept as stored.
KEPT = object()


def config_edited(*, sequential: SequentialRound, config) -> dict | None:
    """The configuration ``config`` gives the round (normalised by
    ``sequential_config_validate``), or ``None`` when it keeps the stored one (``KEPT``, or
    the same). Raises a ``ValidationError`` on ``config``: every error of its check, or, once
    release 1 is frozen, any change (the frozen releases were checked against it)."""
    if config is KEPT or config == sequential.config:
        return None
    if sequential.frozen_steps:
        raise ValidationError(
            {"config": _("Step 1 is frozen: the configuration can no longer change.")}
        )
    try:
        config = sequential_config_validate(config=config)
    except ValidationError as error:
        raise ValidationError({"config": error.error_list}) from None
    return None if config == sequential.config else config


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


def moment_kept(stored, typed, *, field: str, fixed: str = ""):
    """The moment to check again: the stored one when ``typed`` is ``KEPT`` or the same
    minute (sent back as shown: kept to the second), else ``typed``; a ``ValidationError``
    on ``field`` saying ``fixed`` (when given: the moment can no longer move) if it moves."""
    if typed is KEPT or (stored is not None and same_minute(stored, typed)):
        return stored
    if fixed and not same_minute(stored, typed):
        raise ValidationError({field: fixed})
    return typed


def attack_close_edited(
    *,
    sequential: SequentialRound,
    closes: list[dt.datetime],
    attack_closes_at,
    config: dict | None = None,
) -> dt.datetime | None:
    """The attack phase's close to keep (``moment_kept``), or a ``ValidationError`` on
    ``attack_closes_at``: the creation's check (``attack_close_normalise``, against
    ``config`` when the configuration changes in the same save, else the stored one), and
    no move once the results are published."""
    over = _(
        "The results are published: the attack phase is over and its close can no longer move."
    )
    attack_closes_at = moment_kept(
        sequential.attack_closes_at,
        attack_closes_at,
        field="attack_closes_at",
        fixed=over if sequential.results_published else "",
    )
    return attack_close_normalise(
        sequential=sequential, closes=closes, attack_closes_at=attack_closes_at, config=config
    )


def opening_edited(*, sequential: SequentialRound, closes: list[dt.datetime], opens_at):
    """The round's opening to keep (``moment_kept``), or a ``ValidationError`` on
    ``opens_at``: the creation's check (``opening_normalise``), and no move once release 1
    is frozen (as a two-sided round's release phase: the freeze ended it)."""
    frozen = _("Release 1 is frozen: its opening can no longer move.")
    opens_at = moment_kept(
        sequential.opens_at,
        opens_at,
        field="opens_at",
        fixed=frozen if sequential.frozen_steps else "",
    )
    return opening_normalise(sequential=sequential, opens_at=opens_at, closes=closes)


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
    attack_closes_at=KEPT,
    opens_at=KEPT,
    config=KEPT,
    **settings,
) -> list[str]:
    """Save an organizer's closes (``step_closes``, or ``first_close`` and ``step_length``,
    read as ``schedule_set`` reads them; neither: no deadlines), the attack phase's planned
    close (``attack_closes_at``, ``None``: none; not given: kept), when release 1 opens
    (``opens_at``, ``None``: since the creation; not given: kept), ``settings`` (any of
    ``EDITED``; those not given are kept) and the configuration (``config``, the admin's;
    not given: kept; ``config_edited``), the closes checked against it, of ``sequential`` in
    one transaction. Raises a ``ValidationError`` keyed by the field (``config``,
    ``step_closes``, ``step_length``, ``attack_closes_at``, ``opens_at``) as the creation's
    check does, on ``step_closes`` for a frozen release's close moved, on
    ``attack_closes_at`` for a close moved once the results are published (the phase is
    over) and on ``opens_at`` for an opening moved once release 1 is frozen.
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
        new_config = config_edited(sequential=sequential, config=config)
        closes = schedule_normalise(
            sequential=sequential,
            closes=step_closes,
            first_close=first_close,
            step_length=step_length,
            config=new_config,
        )
        if errors := frozen_closes_errors(sequential=sequential, closes=closes):
            raise ValidationError({"step_closes": errors})
        attack_close = attack_close_edited(
            sequential=sequential,
            closes=closes,
            attack_closes_at=attack_closes_at,
            config=new_config,
        )
        opening = opening_edited(sequential=sequential, closes=closes, opens_at=opens_at)
        changed = ["config"] if new_config is not None else []
        changed += ["step_closes"] if closes_changed(sequential, closes) else []
        for name, value in (("attack_closes_at", attack_close), ("opens_at", opening)):
            if not same_minute(getattr(sequential, name), value):
                changed.append(name)
        changed += [name for name, value in settings.items() if getattr(sequential, name) != value]
        if not changed:
            transaction.set_rollback(True)  # the bump too: nothing changed
            return []
        sequential.step_closes = [at.isoformat() for at in closes]
        sequential.attack_closes_at, sequential.opens_at = attack_close, opening
        for name, value in settings.items():
            setattr(sequential, name, value)
        sequential.save(update_fields=["step_closes", "attack_closes_at", "opens_at", *settings])
        if new_config is not None:
            config_save(sequential=sequential, config=new_config)
        round_audit_record(
            user=user,
            round=sequential.round,
            action=AuditEntry.Action.ROUND_EDITED,
            fields=changed,
        )
    return changed


def config_save(*, sequential: SequentialRound, config: dict) -> None:
    """Keep a checked configuration on the round's row and on the round (which the core's
    pages of the round show), as the creation does."""
    sequential.config = config
    sequential.save(update_fields=["config_text"])
    Round.objects.filter(pk=sequential.round_id).update(config=config)
    sequential.round.config = config
