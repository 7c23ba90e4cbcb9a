"""Round-wide operations run as background jobs: freeze, rescore everything, publish.

Every entry point (the admin's actions, the organizer console, the ``freeze_round`` and
``rescore_round`` commands, the automatic freeze of Celery beat) asks with one of the
``round_*_request`` services, which return at once with a :class:`RoundOperation` row.
Asking again while the same kind of operation is queued or running for the round
returns that operation (a partial unique constraint makes this hold between two
simultaneous requests too).

The operation's job follows the model of ``services/jobs.py``: claimed with a run token
by a conditional UPDATE, taken over when its task is delivered again after a worker
death, requeued by the reaper when its worker vanished. Its progress (``progress_done``
of ``progress_total``) is written with the same token, so a run that was superseded
stops at its next step. Every step is idempotent: a requeued freeze publishes again only
what it had not published yet (``target_publish`` keeps a target whose submission did
not change), so it ends with the same targets.
"""

from collections.abc import Callable

from django.db import IntegrityError, transaction
from django.utils import timezone

from pwscup.competitions.models import Round
from pwscup.competitions.services import round_phases_close
from pwscup.notifications.services import notify_results_published, notify_round_frozen
from pwscup.pwscup2015.broker import RUN_ROUND_OPERATION
from pwscup.pwscup2015.models import (
    AnonymizationSubmission,
    AttackSubmission,
    Pwscup2015Round,
    RoundOperation,
    Target,
)
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from pwscup.pwscup2015.services.anonymization import anonymizations_rescore
from pwscup.pwscup2015.services.attacks import attacks_rescore
from pwscup.pwscup2015.services.freeze import freeze_plan, target_publish, targets_rescore
from pwscup.submissions.broker import job_send
from pwscup.submissions.models import PENDING, Status
from pwscup.submissions.services.jobs import job_claim, job_complete, job_run
from pwscup.submissions.services.live import live_jobs_changed


def round_freeze_request(*, round: Round, requested_by=None, now=None) -> RoundOperation:
    """Freeze ``round`` in the background: fix each team's final anonymization and publish
    it as an attack target (then its built-in attacks are scored, one job per target).

    The round is frozen as of ``now`` (the request's time by default), whenever the job
    runs.
    """
    return round_operation_request(
        round=round, kind=RoundOperation.Kind.FREEZE, requested_by=requested_by, now=now
    )


def round_rescore_request(*, round: Round, requested_by=None) -> RoundOperation:
    """Queue every upload, target and attack of ``round`` for scoring again, in the
    background."""
    return round_operation_request(
        round=round, kind=RoundOperation.Kind.RESCORE, requested_by=requested_by
    )


def round_publish_request(*, round: Round, requested_by=None, now=None) -> RoundOperation:
    """Publish the results of ``round`` (attack matrix and final ranking), in the background.

    Every phase still open closes now, before the request returns: no upload accepted
    afterwards can change the ranking being published."""
    round_phases_close(round=round, now=now)
    return round_operation_request(
        round=round, kind=RoundOperation.Kind.PUBLISH, requested_by=requested_by
    )


def round_operation_request(
    *, round: Round, kind: str, requested_by=None, now=None
) -> RoundOperation:
    """The queued or running ``kind`` operation of ``round``, or a new one sent to the workers.

    The returned row has ``created``: False when an operation was already under way.
    Its message is sent when the transaction commits; a broker that is down does not
    lose it (the reaper sends it later).
    """
    active = _active_operation(round=round, kind=kind)
    if active is not None:
        return active
    try:
        with transaction.atomic():
            operation = RoundOperation.objects.create(
                round=round,
                kind=kind,
                requested_by=requested_by,
                created_at=now or timezone.now(),
            )
    except IntegrityError:  # a simultaneous request created it first
        active = _active_operation(round=round, kind=kind)
        if active is None:
            raise
        return active
    operation.dispatch = job_send(RUN_ROUND_OPERATION, operation.pk)
    operation.created = True
    return operation


def _active_operation(*, round: Round, kind: str) -> RoundOperation | None:
    operation = RoundOperation.objects.filter(round=round, kind=kind, status__in=PENDING).first()
    if operation is not None:
        operation.created = False
    return operation


class RunSuperseded(Exception):
    """This run was taken over or requeued: another run carries on."""


class Progress:
    """Writes the run's progress, conditionally on its token (like every transition)."""

    def __init__(self, *, pk: int, token) -> None:
        self.pk = pk
        self.token = token
        self.done = 0

    def _update(self, **values) -> None:
        updated = RoundOperation.objects.filter(
            pk=self.pk, status=Status.RUNNING, started_at=self.token
        ).update(**values)
        if not updated:
            raise RunSuperseded
        # The console's round page shows the progress: it moves like a transition does.
        live_jobs_changed(model=RoundOperation, pks=[self.pk])

    def start(self, total: int) -> None:
        self.done = 0
        self._update(progress_total=total, progress_done=0)

    def advance(self, steps: int = 1) -> None:
        self.done += steps
        self._update(progress_done=self.done)


def round_operation_run(*, operation_id: int, task_id: str = "", worker: str = "") -> None:
    """Run one operation (the task's service); a second delivery does nothing."""
    token = job_claim(model=RoundOperation, pk=operation_id, task_id=task_id, worker=worker)
    if token is None:
        return
    operation = RoundOperation.objects.select_related("round").get(pk=operation_id)
    progress = Progress(pk=operation_id, token=token)
    runner = RUNNERS[operation.kind]

    def compute() -> dict:
        try:
            return runner(operation=operation, progress=progress)
        except RunSuperseded:
            return {}  # the conditional completion below writes nothing either

    status, message, result = job_run(compute, what=f"round operation {operation_id}")
    job_complete(
        model=RoundOperation,
        pk=operation_id,
        token=token,
        status=status,
        message=message,
        result=result,
        progress_done=progress.done,
    )


def freeze_run(*, operation: RoundOperation, progress: Progress) -> dict:
    """The round stops taking uploads and selections, then each team's target is published.

    Each target is published in its own transaction under the round's row lock, so two
    freezes (this job and a direct ``round_freeze``) still run one after the other and
    the organizer sees the progress. Built-in attacks are queued per target as soon as
    it is published, so the other workers score them while the freeze goes on.
    """
    round_ = operation.round
    with transaction.atomic():
        Round.objects.select_for_update().get(pk=round_.pk)
        Pwscup2015Round.objects.filter(round=round_).update(frozen_at=operation.created_at)
    round_.pwscup2015.frozen_at = operation.created_at
    plan = freeze_plan(round=round_)
    before = dict(Target.objects.filter(round=round_).values_list("team_id", "submission_id"))
    progress.start(len(plan))
    published = 0
    for team, submission in plan:
        with transaction.atomic():
            # The ranking version's row before the round's (the lock order of
            # ``ranking_version_bump``): a scoring job waits on it, never in a circle.
            ranking_invalidate(round_ids=[round_.pk])
            Round.objects.select_for_update().get(pk=round_.pk)
            target_publish(round=round_, team=team, submission=submission)
        published += before.get(team.pk) != submission.pk
        progress.advance()
    notify_round_frozen(round=round_, frozen_at=operation.created_at)
    return {"targets": len(plan), "published": published, "unchanged": len(plan) - published}


def rescore_run(*, operation: RoundOperation, progress: Progress) -> dict:
    """Reset and queue every anonymization, target and attack of the round."""
    round_ = operation.round
    anonymizations = AnonymizationSubmission.objects.filter(phase__round=round_)
    attacks = AttackSubmission.objects.filter(phase__round=round_)
    targets = Target.objects.filter(round=round_)
    progress.start(anonymizations.count() + targets.count() + attacks.count())
    counts = {}
    for name, rescore in (
        ("anonymizations", lambda: anonymizations_rescore(queryset=anonymizations)),
        ("targets", lambda: targets_rescore(round=round_)),
        ("attacks", lambda: attacks_rescore(queryset=attacks)),
    ):
        with transaction.atomic():
            counts[name] = rescore()
        progress.advance(counts[name])
    return counts


def publish_run(*, operation: RoundOperation, progress: Progress) -> dict:
    progress.start(1)
    round_phases_close(round=operation.round)  # also when published by another path
    round_results_set(round=operation.round, published=True)
    notify_results_published(round=operation.round)
    progress.advance()
    return {"published": True}


def round_results_set(*, round: Round, published: bool) -> None:
    """Show (or hide again) the round's attack matrix and final ranking to everyone."""
    Pwscup2015Round.objects.filter(round=round).update(results_published=published)
    round.pwscup2015.results_published = published


RUNNERS: dict[str, Callable[..., dict]] = {
    RoundOperation.Kind.FREEZE: freeze_run,
    RoundOperation.Kind.RESCORE: rescore_run,
    RoundOperation.Kind.PUBLISH: publish_run,
}
