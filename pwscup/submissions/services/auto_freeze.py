"""The freeze at the release phase's close, for every kind that declares one
(``RoundKind.auto_freeze``, ``pwscup.kinds.auto_freeze.AutoFreeze``): run by Celery beat
(``pwscup.submissions.tasks.auto_freeze_rounds``) on the rounds whose organizer asked for it.

The rule, in one place: a round is frozen once its release phase has closed, its releases
are not frozen yet and the releases accepted before the close are scored (the core's
``uploads_in_flight``: what was registered by the deadline counts). The freeze is the kind's
console action, the organizer's button (its checks, its messages to the participants), with
the same entry in the audit log, by the platform; one check more, as no one is there to
decide: a freeze that would publish no target is undone and refused. It runs under the row lock of the kind's
row of the round, so two beats or two workers freeze a round once. A refused freeze (no
release to publish, say) is kept on the row for the console's panel, and tried again at the
next beat (the organizer may have changed what refused it)."""

from django.db import transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_lazy

from pwscup.competitions.models import AuditEntry
from pwscup.competitions.services import audit_record
from pwscup.core.errors import Refused
from pwscup.kinds.registry import all_kinds
from pwscup.submissions.services.auto_freeze_state import release_closed_at, scoring_awaited

#: Why the platform did not freeze a round no team has a release of to publish.
NOTHING_TO_FREEZE = gettext_lazy(
    "No team has a scored release to publish, so the releases were not frozen "
    "automatically. Freeze them here if the round should go on without targets."
)


def rounds_auto_freeze(*, now=None) -> list[int]:
    """Freeze every round that is due (see the module): the periodic task's work. Returns
    the ids of the rounds frozen now."""
    now = now or timezone.now()
    frozen = []
    for kind in all_kinds():
        declared = kind.auto_freeze
        if declared is None:
            continue
        due = declared.model.objects.filter(
            auto_freeze=True,
            frozen_at__isnull=True,
            round__phases__kind=declared.release_kind,
            round__phases__closes_at__lte=now,
        )
        for row in due.select_related("round__competition").distinct().order_by("pk"):
            if round_auto_freeze(kind=kind, row=row, now=now):
                frozen.append(row.round_id)
    return frozen


def round_auto_freeze(*, kind, row, now) -> bool:
    """Freeze the round of ``row`` (the kind's row) if it is due at ``now`` and not frozen
    meanwhile: whether it froze now."""
    declared = kind.auto_freeze
    closed_at = release_closed_at(declared, row, now=now)
    if closed_at is None:
        return False
    if scoring_awaited(declared, row, closed_at=closed_at, now=now):
        return False  # scored first: the pages say the freeze comes when scoring ends
    with transaction.atomic():
        row = declared.model.objects.select_for_update().select_related("round").get(pk=row.pk)
        if row.frozen_at is not None or not row.auto_freeze:
            return False  # frozen by the other beat, or by the organizer, meanwhile
        action = kind.console_actions(row.round).get(declared.action)
        if action is None:
            return False  # not offered any more (published): nothing to freeze, nothing to log
        refusal = _freeze_refusal(action=action, row=row)
        if refusal is not None:
            if refusal != row.auto_freeze_refusal:
                declared.model.objects.filter(pk=row.pk).update(auto_freeze_refusal=refusal)
            return False
        declared.model.objects.filter(pk=row.pk).update(auto_freeze_refusal="")
        audit_record(
            user=None,
            competition=row.round.competition,
            round=row.round,
            action=AuditEntry.Action.ROUND_FROZEN,
            targets=row.targets.count(),
            automatic=True,
        )
    return True


def _freeze_refusal(*, action, row) -> str | None:
    """Run the kind's freeze ``action`` as the organizer's button does, by no user; why it
    was refused (in English, translated where it is shown), ``None`` once done."""
    try:
        with transaction.atomic(), translation.override("en"):
            action.perform(user=None, round=row.round)
            if not row.targets.exists():
                # Undone: unattended, the platform does not end the release phase with
                # nothing to attack (the organizer's button may, knowingly).
                raise Refused(str(NOTHING_TO_FREEZE), status=409)
    except Refused as refusal:
        return str(refusal.message)
    return None
