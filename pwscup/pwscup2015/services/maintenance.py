"""The PWSCup 2015 game's round-wide maintenance: rescoring a round, the automatic freeze."""

from django.utils import timezone

from pwscup.competitions.models import Phase, Round
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    RoundOperation,
)
from pwscup.pwscup2015.services.anonymization import enqueue_anonymization
from pwscup.pwscup2015.services.attacks import attacks_rescore
from pwscup.pwscup2015.services.freeze import targets_rescore
from pwscup.pwscup2015.services.operations import round_freeze_request
from pwscup.submissions.models import PENDING
from pwscup.submissions.services.jobs import job_reset
from pwscup.submissions.services.maintenance import uploads_in_flight
from pwscup.submissions.voids import counted


def round_rescore_all(*, round: Round) -> dict[str, int]:
    """Score every upload and target of the round again with the current scorer."""
    anonymizations = list(
        AnonymizationSubmission.objects.filter(phase__round=round).values_list("pk", flat=True)
    )
    job_reset(model=AnonymizationSubmission, pks=anonymizations)
    for pk in anonymizations:
        enqueue_anonymization(pk)
    return {
        "anonymizations": len(anonymizations),
        "targets": targets_rescore(round=round),
        "attacks": attacks_rescore(queryset=AttackSubmission.objects.filter(phase__round=round)),
    }


def rounds_auto_freeze(*, now=None) -> list[int]:
    """Ask for the freeze of every round whose anonymization phase has closed and that
    asks for it (a background operation; a round whose freeze is under way is skipped).

    Uploads accepted before the phase closed but still being scored are waited for (the
    core's ``uploads_in_flight``), so that the freeze sees them: once frozen, the published
    target is what stands for the team everywhere.
    """
    now = now or timezone.now()
    frozen = []
    due = Round.objects.filter(
        pwscup2015__auto_freeze=True,
        pwscup2015__frozen_at__isnull=True,
        phases__kind=Phase.Kind.ANONYMIZATION,
        phases__closes_at__lte=now,
    ).distinct()
    freezing = RoundOperation.objects.filter(
        kind=RoundOperation.Kind.FREEZE, status__in=PENDING
    ).values("round_id")
    for round_ in due.exclude(pk__in=freezing):
        if _uploads_in_flight(round=round_, now=now):
            continue
        round_freeze_request(round=round_, now=now)
        frozen.append(round_.pk)
    return frozen


def _uploads_in_flight(*, round: Round, now) -> bool:
    closed = round.phases.filter(kind=Phase.Kind.ANONYMIZATION, closes_at__lte=now)
    return any(
        uploads_in_flight(
            counted(AnonymizationSubmission.objects.filter(phase=phase)),
            closed_at=phase.closes_at,
            now=now,
        )
        for phase in closed
    )
