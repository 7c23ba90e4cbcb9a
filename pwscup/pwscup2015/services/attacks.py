"""Attack phase: correspondence-table uploads and their scoring."""

from django.utils.translation import gettext as _

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase
from pwscup.core.errors import Refused
from pwscup.core.files import opened
from pwscup.pwscup2015.broker import SCORE_ATTACK
from pwscup.pwscup2015.models import AttackSubmission, Target
from pwscup.pwscup2015.selectors import target_truth
from pwscup.pwscup2015.services.upload_jobs import upload_score_complete, uploads_rescore
from pwscup.submissions.broker import Dispatch, job_send
from pwscup.submissions.services.jobs import job_claim, job_run
from pwscup.submissions.services.uploads import store_upload


def attack_submission_create(
    *, phase: Phase, team: Team, target: Target, user, uploaded_file, note: str = "", now=None
) -> AttackSubmission:
    if target.round_id != phase.round_id:
        raise Refused(_("This target does not belong to this round."), status=404)
    if target.team_id == team.pk:
        raise Refused(_("A team cannot attack its own anonymization."), status=403)
    return store_upload(
        model=AttackSubmission,
        task=SCORE_ATTACK,
        phase=phase,
        team=team,
        user=user,
        uploaded_file=uploaded_file,
        stored_name=f"{team.slug}_attack_{target.team.slug}.csv",
        note=note,
        now=now,
        target_filter={"target": target},
        target=target,
        target_version=target.version,
    )


def enqueue_attack(pk: int) -> Dispatch:
    return job_send(SCORE_ATTACK, pk)


def attack_submission_score(*, submission_id: int, task_id: str = "", worker: str = "") -> None:
    token = job_claim(model=AttackSubmission, pk=submission_id, task_id=task_id, worker=worker)
    if token is None:
        return
    submission = AttackSubmission.objects.select_related("target__round").get(pk=submission_id)
    target = submission.target

    def compute() -> dict:
        with opened(submission.file) as handle:
            answer = scoring.read_correspondence(
                handle,
                rows=target.rows,
                reference_rows=target.reference_rows,
                name=submission.original_filename,
            )
        score = scoring.score_correspondence(answer, target_truth(target=target))
        return {"rate": score.rate, "correct": score.correct, "rows": score.rows}

    status, message, result = job_run(compute, what=f"attack {submission_id}")
    result = {"rate": None, "correct": None, "rows": None, **result}
    upload_score_complete(
        model=AttackSubmission,
        submission=submission,
        round_id=target.round_id,
        token=token,
        status=status,
        message=message,
        target_version=target.version,
        **result,
    )


def attacks_rescore(*, queryset) -> int:
    return uploads_rescore(model=AttackSubmission, queryset=queryset, enqueue=enqueue_attack)
