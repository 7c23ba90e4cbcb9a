"""The freeze: each team's final release (chosen, else its newest scored one) is published
as a target; releases are refused from then and the attack phase may run. And a new program
version's rescoring of what an older one scored."""

from django.db import transaction

from pwscup.competitions.models import AuditEntry, Phase
from pwscup.competitions.services import round_audit_record
from pwscup.scorer import selectors
from pwscup.scorer.models import Attack, Release, ScorerRound, Target
from pwscup.scorer.services.common import SCORE_ATTACK_TASK, SCORE_RELEASE_TASK
from pwscup.scorer.services.upload_files import kept_files_refusal
from pwscup.submissions import broker
from pwscup.submissions.models import PENDING, Status
from pwscup.submissions.services.jobs import job_reset
from pwscup.submissions.services.two_sided_freeze import (
    two_sided_attack_phase_open_now,
    two_sided_freeze,
)


def round_freeze(*, scorer: ScorerRound, user=None, now=None, early: bool = False) -> list[Target]:
    """Publish every team's final release as a target (its public files become the other
    teams' downloads); release uploads are refused from now. Freezing again republishes only
    the targets whose final release changed. Before the release phase opens, only
    ``early`` (``two_sided_freeze``). Returns the targets (re)published."""
    return two_sided_freeze(
        state=scorer,
        final_release=lambda state, team: selectors.final_release(scorer=state, team=team),
        user=user,
        now=now,
        early=early,
    )


def attack_phase_open_now(
    *, scorer: ScorerRound, user=None, now=None, early: bool = False
) -> tuple[list[Target], Phase]:
    """From the release phase to the attack phase ahead of the schedule: the release phase
    closes now, the releases are frozen and the attack phase opens now (the core's
    ``round_phase_open_now``). Refused once the results are published."""
    return two_sided_attack_phase_open_now(
        state=scorer,
        freeze=lambda state, now: round_freeze(scorer=state, user=user, now=now),
        user=user,
        now=now,
        early=early,
    )


def outdated_uploads(*, scorer: ScorerRound) -> dict:
    """The kept uploads not scored by the current program version, by model: what a rescore
    runs again (a refused one too: a corrected program may accept it), except an upload the
    round's files check refused and refuses still (``_files_refused_still``)."""
    program = selectors.current_program(scorer=scorer)
    if program is None:
        return {Release: [], Attack: []}
    outdated = {}
    for model in (Release, Attack):
        kept = model.objects.filter(scorer=scorer).exclude(status__in=PENDING)
        kept = kept.exclude(program=program)
        # Only an upload no program ran on can be one the files check refused.
        unrun = kept.filter(status=Status.FAILED, program__isnull=True)
        refused = _files_refused_still(scorer=scorer, uploads=unrun, model=model)
        outdated[model] = [pk for pk in kept.values_list("pk", flat=True) if pk not in refused]
    return outdated


def _files_refused_still(*, scorer: ScorerRound, uploads, model) -> set[int]:
    """The uploads the round's files check refuses as its rule is now: a rescore would check
    them again and leave them as they are, so no version is owed to them (else the console
    would ask for a rescore that can never be done)."""
    kind = "attack" if model is Attack else "release"
    if selectors.round_config(scorer.round).files_rule(kind).empty:
        return set()
    return {
        upload.pk
        for upload in uploads.select_related("scorer__round")
        if kept_files_refusal(upload=upload, kind=kind) is not None
    }


def rescore_outdated(*, scorer: ScorerRound, user=None) -> int:
    """Run the current program version again on every kept upload another version scored
    (its old scores stay until the new ones replace them). Returns how many were queued."""
    outdated = outdated_uploads(scorer=scorer)
    tasks = {Release: SCORE_RELEASE_TASK, Attack: SCORE_ATTACK_TASK}
    total = 0
    with transaction.atomic():
        for model, pks in outdated.items():
            total += job_reset(model=model, pks=pks)
        round_audit_record(
            user=user, round=scorer.round, action=AuditEntry.Action.ROUND_RESCORED, uploads=total
        )
        transaction.on_commit(
            lambda: [broker.job_send(tasks[m], pk) for m, pks in outdated.items() for pk in pks]
        )
    return total
