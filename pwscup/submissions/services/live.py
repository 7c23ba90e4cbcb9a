"""The live status's writes: every change of a job's state bumps the version its pages poll.

Three scopes (``pwscup.submissions.models.LiveVersion``): a team in a round (the team's pages
follow its own jobs), the round (the console's round page follows every job and operation
of the round), and a team's jobs of no round (the presentations page follows the slides). The job state machine (``services/jobs.py``:
claim, complete, requeue, reset; the reaper's failure of an exhausted run) calls ``live_jobs_changed`` after
each transition that changed a row, and the upload pipeline (``upload_keep``) calls
``live_scope_changed`` for each new QUEUED upload.

A job model says where its round and team are through its ``JobKind`` (``round_path``,
``team_path``, field paths from a job row, e.g. ``"phase__round"``): a model registered
without a ``round_path`` (the slides' preview: a competition's, no round's) bumps its team's
scope of no round. Reading the scope costs one query per transition; the caller's code stays
unaware of it.

Lock order: a transaction bumps its team scopes first, sorted, then its round scopes, sorted,
so two transactions bumping the same rows never wait on each other in a circle.
"""

from django.db import IntegrityError, transaction
from django.db.models import F

from pwscup.submissions.models import LiveVersion
from pwscup.submissions.registry import job_kind_of


def live_bump(*, round_id: int | None, team_id: int | None = None) -> None:
    """One more version of the scope (``team_id`` ``None``: the round's own; ``round_id``
    ``None``: the team's jobs of no round).

    Atomic through the ORM's public API: ``UPDATE ... SET version = version + 1`` (an ``F``
    expression: the database adds, so two bumps at once both count and none is lost). A
    scope's first bump finds no row and inserts it at 1 inside a savepoint; when a
    concurrent first bump inserted it meanwhile, the unique index refuses ours
    (``IntegrityError``), the savepoint alone is rolled back (the caller's transaction goes
    on) and the UPDATE, run again, finds the row. Not ``update_or_create`` (a read, then a
    write: with no row to lock yet, both creators race), nor
    ``bulk_create(update_conflicts=True)`` (its update takes the inserted value and cannot
    add to the stored one, and it cannot name a partial unique index's condition).
    """
    scope = LiveVersion.objects.filter(round_id=round_id, team_id=team_id)
    if scope.update(version=F("version") + 1):
        return
    try:
        with transaction.atomic():
            LiveVersion.objects.create(round_id=round_id, team_id=team_id, version=1)
    except IntegrityError:
        scope.update(version=F("version") + 1)


def live_scope_changed(*, round_id: int | None, team_id: int | None) -> None:
    """Something of the team in the round changed (a new upload): its version and the
    round's (``round_id`` ``None``: the team's scope of no round alone)."""
    if team_id is not None:
        live_bump(round_id=round_id, team_id=team_id)
    if round_id is not None:
        live_bump(round_id=round_id)


def live_jobs_changed(*, model, pks) -> None:
    """The jobs ``pks`` of ``model`` changed state: bump the version of each team and round
    they belong to (see the module's docstring)."""
    job = job_kind_of(model)
    paths = [path for path in (job.round_path, job.team_path) if path] if job else []
    if not paths:
        return
    scopes = {
        (row.get(job.round_path), row.get(job.team_path))
        for row in model.objects.filter(pk__in=list(pks)).values(*paths)
    }
    teams = sorted(
        (s for s in scopes if s[1] is not None), key=lambda s: (s[0] is None, s[0] or 0, s[1])
    )
    for round_id, team_id in teams:
        live_bump(round_id=round_id, team_id=team_id)
    for round_id in sorted({round_id for round_id, _team_id in scopes if round_id is not None}):
        live_bump(round_id=round_id)
