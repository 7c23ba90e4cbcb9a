"""Anonymization phase: upload, score, choose the final submission."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase
from pwscup.core.errors import Refused
from pwscup.core.files import opened
from pwscup.pwscup2015.broker import SCORE_ANONYMIZATION
from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard_cached
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.pwscup2015.prepared import prepared_team_original
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from pwscup.pwscup2015.services.upload_jobs import upload_score_complete, uploads_rescore
from pwscup.pwscup2015.value_ranges import parse_value_ranges
from pwscup.submissions.broker import Dispatch, job_send
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_claim, job_run
from pwscup.submissions.services.uploads import store_upload
from pwscup.submissions.services.windows import phase_window_check


def anonymization_submission_create(
    *, phase: Phase, team: Team, user, uploaded_file, note: str = "", now=None
) -> AnonymizationSubmission:
    """Keep the upload as it is and queue it for scoring (validation happens in the worker)."""
    return store_upload(
        model=AnonymizationSubmission,
        task=SCORE_ANONYMIZATION,
        phase=phase,
        team=team,
        user=user,
        uploaded_file=uploaded_file,
        stored_name=f"{team.slug}_anonymized.csv",
        note=note,
        now=now,
    )


def enqueue_anonymization(pk: int) -> Dispatch:
    return job_send(SCORE_ANONYMIZATION, pk)


def anonymizations_rescore(*, queryset) -> int:
    return uploads_rescore(
        model=AnonymizationSubmission, queryset=queryset, enqueue=enqueue_anonymization
    )


def anonymization_submission_score(
    *, submission_id: int, task_id: str = "", worker: str = ""
) -> None:
    """Score one submission; a second delivery of the same job does nothing."""
    token = job_claim(
        model=AnonymizationSubmission, pk=submission_id, task_id=task_id, worker=worker
    )
    if token is None:
        return
    submission = AnonymizationSubmission.objects.select_related(
        "phase__round__pwscup2015", "team"
    ).get(pk=submission_id)

    def compute() -> dict:
        # The original is prepared once per worker process and round version.
        original, config = prepared_team_original(
            round=submission.phase.round, team=submission.team
        )
        with opened(submission.file) as handle:
            table = scoring.load_table(handle, name=submission.original_filename)
        # The round's range rule replaces the "value of the original" rule of its columns.
        ranges = parse_value_ranges(submission.phase.round.pwscup2015.value_ranges)
        return scoring.evaluate(original, table, config, value_ranges=ranges)

    status, message, scores = job_run(compute, what=f"submission {submission_id}")
    upload_score_complete(
        model=AnonymizationSubmission,
        submission=submission,
        round_id=submission.phase.round_id,
        token=token,
        status=status,
        message=message,
        scores=scores,
    )
    if status == Status.FINISHED:
        # The worker that wrote the score ranks the phase again for the new ranking version
        # (``ranking_cached``), so the next leaderboard, Submit or Results tab finds the rows
        # made: at 100 teams that is 8 ms of CPU taken off a page's path during a rush.
        anonymization_leaderboard_cached(phase=submission.phase)


@transaction.atomic
def anonymization_submission_select(*, submission: AnonymizationSubmission, team: Team, now=None):
    """Make ``submission`` the team's final one (only a finished one, while the phase is open)."""
    now = now or timezone.now()
    if submission.team_id != team.pk:
        raise Refused(_("This submission does not belong to your team."), status=404)
    if submission.status != Status.FINISHED:
        raise Refused(_("Only a scored (finished) submission can be chosen as final."))
    if submission.voided_at is not None:
        raise Refused(_("A voided submission cannot be your final one."), status=409)
    phase = submission.phase
    # Open until its close or the freeze (phase_closes_at), refused as an upload would be.
    phase_window_check(phase=phase, now=now)
    ranking_invalidate(round_ids=[phase.round_id])
    AnonymizationSubmission.objects.filter(phase=phase, team=team, is_selected=True).update(
        is_selected=False
    )
    AnonymizationSubmission.objects.filter(pk=submission.pk).update(is_selected=True)
    submission.is_selected = True
    return submission
