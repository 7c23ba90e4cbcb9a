"""What the 2015 game's two scored uploads (anonymizations and attacks) share around their
scoring jobs: the end of a job and a rescore. Both move the round's ranking version in the
transaction that writes the scores, so the cached rankings never show stale ones."""

from django.db import transaction

import scoring
from pwscup.pwscup2015.ranking_cache import ranking_invalidate
from pwscup.submissions.services.jobs import job_complete, job_reset


def upload_score_complete(
    *, model, submission, round_id: int, token, status, message, **values
) -> None:
    """Write a scoring job's outcome (``values``: the scores) on ``submission`` if ``token``
    still holds the job (``job_complete`` tells the team how it ended)."""
    # The scores and the round's new ranking version commit together (a short transaction:
    # the scoring is done).
    with transaction.atomic():
        ranking_invalidate(round_ids=[round_id])
        job_complete(
            model=model,
            pk=submission.pk,
            token=token,
            status=status,
            message=message,
            scorer_version=scoring.SCORER_VERSION,
            **values,
        )


def uploads_rescore(*, model, queryset, enqueue) -> int:
    """Score the uploads of ``queryset`` again (``enqueue(pk)`` sends one's job); returns
    how many."""
    pks = list(queryset.values_list("pk", flat=True))
    with transaction.atomic():
        ranking_invalidate(round_ids=queryset.order_by().values_list("phase__round_id", flat=True))
        job_reset(model=model, pks=pks)
        for pk in pks:
            enqueue(pk)  # sent once the reset has committed
    return len(pks)
