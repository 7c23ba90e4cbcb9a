"""Reading a round's background operations and their progress (for organizers only).

The same summary feeds the round's admin page, the organizer's matrix and final pages
and the JSON endpoint that the organizer console polls.
"""

from django.db.models import Count, F, Q, Window
from django.db.models.functions import RowNumber
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.competitions.models import Round
from pwscup.pwscup2015.models import Pwscup2015Round, RoundOperation, Target
from pwscup.submissions.messages import job_message_text
from pwscup.submissions.models import Status

STARTED = {
    RoundOperation.Kind.FREEZE: gettext_lazy("%(round)s: freeze started."),
    RoundOperation.Kind.RESCORE: gettext_lazy("%(round)s: rescoring of everything started."),
    RoundOperation.Kind.PUBLISH: gettext_lazy("%(round)s: publication of the results started."),
}


def operation_request_text(*, operation: RoundOperation) -> str:
    """What the organizer is told right after asking for ``operation``."""
    if getattr(operation, "created", True):
        return str(STARTED[operation.kind]) % {"round": operation.round}
    return _("%(round)s: %(operation)s is already under way (%(done)d of %(total)d done).") % {
        "round": operation.round,
        "operation": operation.get_kind_display(),
        "done": operation.progress_done,
        "total": operation.progress_total,
    }


def round_operations_latest(*, round: Round) -> list[RoundOperation]:
    """The latest operation of each kind of ``round`` (one query), in the kinds' order."""
    newest_first = Window(
        RowNumber(), partition_by=[F("kind")], order_by=[F("created_at").desc(), F("id").desc()]
    )
    latest = {
        operation.kind: operation
        for operation in RoundOperation.objects.filter(round=round)
        .annotate(position=newest_first)
        .filter(position=1)
        .order_by()
    }
    return [latest[kind] for kind in RoundOperation.Kind.values if kind in latest]


def round_builtin_progress(*, round: Round) -> dict[str, int]:
    """How many of the round's targets have their built-in attacks in each state."""
    counts = Target.objects.filter(round=round).aggregate(
        targets=Count("pk"),
        **{status: Count("pk", filter=Q(builtin__status=status)) for status in Status.values},
    )
    return {key: int(value or 0) for key, value in counts.items()}


def operation_summary(operation: RoundOperation) -> dict:
    return {
        "id": operation.pk,
        "kind": operation.kind,
        "label": str(operation.get_kind_display()),
        "status": operation.status,
        "status_label": str(operation.get_status_display()),
        "done": operation.progress_done,
        "total": operation.progress_total,
        "active": operation.is_pending,
        "result": operation.result,
        "message": job_message_text(operation),
        # Datetimes: the templates show them in the reader's time zone; JsonResponse's
        # encoder writes them in ISO 8601.
        "requested_at": operation.created_at,
        "started_at": operation.started_at,
        "finished_at": operation.finished_at,
    }


def round_operations_summary(*, round: Round) -> dict:
    """Latest operations, built-in attack progress, freeze and publication state."""
    round_state = (
        Pwscup2015Round.objects.filter(round=round).values("frozen_at", "results_published").first()
        or {}
    )
    return {
        "operations": [operation_summary(o) for o in round_operations_latest(round=round)],
        "builtin": round_builtin_progress(round=round),
        "frozen_at": round_state.get("frozen_at"),
        "results_published": bool(round_state.get("results_published")),
    }
