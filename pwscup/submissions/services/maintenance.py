"""Organizer-wide operations: rescoring a round, reaping stuck jobs, automatic freezes."""

import datetime as dt

from django.conf import settings
from django.utils import timezone

from pwscup.competitions.models import Phase, Round
from pwscup.submissions.models import AnonymizationSubmission, AttackSubmission, Status, Target
from pwscup.submissions.services.anonymization import enqueue_anonymization
from pwscup.submissions.services.attacks import attacks_rescore, enqueue_attack
from pwscup.submissions.services.freeze import enqueue_builtin, round_freeze, targets_rescore
from pwscup.submissions.services.jobs import (
    BUILTIN_JOB,
    UPLOAD_JOB,
    exhausted_message,
    job_requeue,
    stale_before,
)

QUEUED_RESEND_AFTER = dt.timedelta(minutes=30)


def round_rescore_all(*, round: Round) -> dict[str, int]:
    """Score every upload and target of the round again with the current scorer."""
    anonymizations = list(
        AnonymizationSubmission.objects.filter(phase__round=round).values_list("pk", flat=True)
    )
    job_requeue(model=AnonymizationSubmission, pks=anonymizations, reset_attempts=True)
    for pk in anonymizations:
        enqueue_anonymization(pk)
    return {
        "anonymizations": len(anonymizations),
        "targets": targets_rescore(round=round),
        "attacks": attacks_rescore(queryset=AttackSubmission.objects.filter(phase__round=round)),
    }


def jobs_reap(*, now=None) -> dict[str, int]:
    """Requeue jobs whose worker vanished, or fail them with a reason after too many tries.

    A QUEUED job whose task was sent more than ``QUEUED_RESEND_AFTER`` ago (a lost broker
    message) is sent again, at most once per that interval, so a long backlog after a
    rescore is not multiplied by the reaper.
    """
    now = now or timezone.now()
    counts = {"requeued": 0, "failed": 0, "resent": 0}
    for model, fields, enqueue in (
        (AnonymizationSubmission, UPLOAD_JOB, enqueue_anonymization),
        (AttackSubmission, UPLOAD_JOB, enqueue_attack),
        (Target, BUILTIN_JOB, enqueue_builtin),
    ):
        lost = model.objects.filter(
            **{fields.status: Status.RUNNING, f"{fields.started_at}__lt": stale_before(now)}
        )
        failed = {
            fields.status: Status.FAILED,
            fields.message: exhausted_message(),
        }
        if fields.finished_at:
            failed[fields.finished_at] = now
        exhausted = lost.filter(**{f"{fields.attempts}__gte": settings.PWSCUP_SCORING_MAX_ATTEMPTS})
        counts["failed"] += exhausted.update(**failed)
        retry = list(lost.values_list("pk", flat=True))
        counts["requeued"] += job_requeue(model=model, pks=retry, fields=fields)
        forgotten = model.objects.filter(
            **{fields.status: Status.QUEUED, f"{fields.queued_at}__lt": now - QUEUED_RESEND_AFTER}
        ).exclude(pk__in=retry)
        resend = list(forgotten.values_list("pk", flat=True))
        model.objects.filter(pk__in=resend).update(**{fields.queued_at: now})
        for pk in retry + resend:
            enqueue(pk)
        counts["resent"] += len(resend)
    return counts


def rounds_auto_freeze(*, now=None) -> list[int]:
    """Freeze every round whose anonymization phase has closed and that asks for it."""
    now = now or timezone.now()
    frozen = []
    due = Round.objects.filter(
        auto_freeze=True,
        frozen_at__isnull=True,
        phases__kind=Phase.Kind.ANONYMIZATION,
        phases__closes_at__lte=now,
    ).distinct()
    for round_ in due:
        round_freeze(round=round_, now=now)
        frozen.append(round_.pk)
    return frozen
