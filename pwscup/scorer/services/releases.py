"""A team's releases and attacks: kept through the core's upload pipeline while their phase
is open, scored by a worker (``scoring_runs``), and the team's choice of its final release
and (a round whose ``attack_counts`` is ``chosen``) of the attack that counts.
An upload lacking a file the round requires (``release_files``, ``attack_files``) is kept
FAILED at once, saying which, never sent to a worker, and does not lock the team's data
choice."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.core.errors import Refused
from pwscup.core.row_locks import team_row_lock
from pwscup.scorer.models import Attack, Release, ScorerRound, Target
from pwscup.scorer.selectors import round_config
from pwscup.scorer.services.common import (
    SCORE_ATTACK_TASK,
    SCORE_RELEASE_TASK,
    hidden_ready_check,
)
from pwscup.scorer.services.rounds import slots_for_teams
from pwscup.scorer.services.upload_files import files_refusal
from pwscup.submissions.broker import Dispatch
from pwscup.submissions.models import Status
from pwscup.submissions.services.jobs import job_refuse
from pwscup.submissions.services.two_sided import (
    ATTACK,
    RELEASE,
    two_sided_attack_open,
    two_sided_phase_check,
    two_sided_release_open,
    two_sided_release_select,
    two_sided_upload_keep,
)
from pwscup.submissions.services.uploads import original_name

# What each upload is: its model, its scoring task and the phase that takes it.
UPLOADS = {
    "release": (Release, SCORE_RELEASE_TASK, RELEASE),
    "attack": (Attack, SCORE_ATTACK_TASK, ATTACK),
}


def _keep(
    kind: str,
    *,
    scorer: ScorerRound,
    team: Team,
    user,
    uploaded_file,
    default: str,
    now,
    check,
    target_uploads=None,
    **fields,
):
    """Keep a ``kind`` upload (``release``, ``attack``) of ``team`` through the core's
    upload pipeline under its own name (``default`` when it has none) and send its job, or
    store it FAILED at once, with no job, when it lacks a file the round requires
    (``files_refusal``). ``check``: the phase's refusals; ``target_uploads``: the team's
    attacks on the upload's target (per-target rounds; an attack on every target has none,
    its phase's total limits it per upload)."""
    model, task, phase_kind = UPLOADS[kind]
    name = original_name(uploaded_file, default=default)
    refusal = files_refusal(scorer=scorer, kind=kind, uploaded_file=uploaded_file, name=name)
    upload = two_sided_upload_keep(
        state=scorer,
        kind=phase_kind,
        model=model,
        uploads=model.objects.filter(scorer=scorer, team=team),
        target_uploads=target_uploads,
        task=task if refusal is None else None,
        team=team,
        uploaded_file=uploaded_file,
        stored_name=name,
        now=now,
        check=check,
        scorer=scorer,
        user=user,
        locks_choice=refusal is None,  # a refused upload used none of the pack's data
        **fields,
    )
    if refusal is None:
        return upload
    job_refuse(model=model, pk=upload.pk, message=refusal)
    upload.refresh_from_db()
    upload.dispatch = Dispatch()
    return upload


def release_upload(*, scorer: ScorerRound, team: Team, user, uploaded_file, now=None) -> Release:
    """Keep a release as uploaded (QUEUED, through the core's upload pipeline: size cap,
    limits, failed-upload cap) and send it to a worker; refused (403) outside the release
    phase or once the round is frozen. A refused one (FAILED) costs no quota."""
    now = now or timezone.now()
    slots_for_teams(scorer=scorer)

    def release_open() -> None:
        two_sided_release_open(state=scorer, now=now)
        hidden_ready_check(scorer=scorer)

    return _keep(
        "release",
        scorer=scorer,
        team=team,
        user=user,
        uploaded_file=uploaded_file,
        default="release.zip",
        now=now,
        check=release_open,
    )


def release_select(*, release: Release, now=None) -> None:
    """Make a scored release the team's final one (the freeze publishes it); refused once
    the round is frozen or the release phase has closed."""
    two_sided_release_select(state=release.scorer, release=release, now=now)


def attack_upload(
    *, scorer: ScorerRound, team: Team, user, uploaded_file, target: Target | None = None, now=None
) -> Attack:
    """Keep an attack as uploaded (QUEUED) and send it to a worker: on ``target`` when the
    round takes one upload per target, on every target at once (``target`` ``None``) when an
    upload covers them all. Refused (403) outside the attack phase, before the freeze, after
    the publication, on the team's own release, or with the wrong shape for the round."""
    now = now or timezone.now()
    round_ = scorer.round
    per_target = round_config(round_).attack_mode == "per_target"
    if per_target and target is None:
        raise Refused(_("Choose the target team of your attack."), status=400)
    if not per_target and target is not None:
        raise Refused(_("An attack in this round covers every target at once."), status=400)
    if target is not None and target.scorer_id != scorer.pk:
        raise Refused(_("This target is not part of the round."), status=404)

    def attack_open() -> None:
        two_sided_attack_open(state=scorer, team=team, target=target, now=now)
        hidden_ready_check(scorer=scorer)

    default = f"{team.slug}_attack_{target.team.slug}.zip" if target else f"{team.slug}_attack.zip"
    return _keep(
        "attack",
        scorer=scorer,
        team=team,
        user=user,
        uploaded_file=uploaded_file,
        default=default,
        now=now,
        check=attack_open,
        target_uploads=(
            Attack.objects.filter(scorer=scorer, team=team, target=target)
            if target is not None
            else None
        ),
        target=target,
    )


def attack_select(*, attack: Attack, now=None) -> None:
    """Register a scored attack as the one that counts for its team (a round whose
    ``attack_counts`` is ``chosen``): on its target, or on every target for an upload
    covering them all; the team's other selection there is dropped. Refused in a round
    that counts another upload, for an attack not scored, outside the attack phase and once
    the results are published."""
    now = now or timezone.now()
    scorer = attack.scorer
    if round_config(scorer.round).attack_counts != "chosen":
        raise Refused(
            _("In this round your team does not choose the attack that counts."), status=409
        )
    with transaction.atomic():
        team_row_lock(Team.objects.filter(pk=attack.team_id))
        two_sided_phase_check(round=scorer.round, kind=ATTACK, now=now)
        scorer.refresh_from_db(fields=["results_published"])
        if scorer.results_published:
            raise Refused(_("The results are published: the attack phase is over."), status=403)
        if attack.status != Status.FINISHED:
            raise Refused(_("Only a scored attack can be the one that counts."))
        mine = Attack.objects.filter(scorer=scorer, team_id=attack.team_id)
        mine.filter(target_id=attack.target_id).update(selected=False)
        mine.filter(pk=attack.pk).update(selected=True)
        attack.selected = True
