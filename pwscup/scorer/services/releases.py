"""A team's releases and attacks: kept through the core's upload pipeline while their phase
is open, scored by a worker (``scoring_runs``), and the team's choice of its final release.
An upload lacking a file the round requires (``release_files``, ``attack_files``) is kept
FAILED at once, saying which, and never sent to a worker."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of
from pwscup.core.errors import Refused
from pwscup.scorer.models import Attack, Release, ScorerRound, Target
from pwscup.scorer.selectors import round_config
from pwscup.scorer.services.common import (
    SCORE_ATTACK_TASK,
    SCORE_RELEASE_TASK,
    hidden_ready_check,
)
from pwscup.scorer.services.rounds import slots_for_teams
from pwscup.scorer.services.scoring_runs import res_name
from pwscup.submissions import broker
from pwscup.submissions.broker import Dispatch
from pwscup.submissions.messages import JobMessage
from pwscup.submissions.services.jobs import job_refuse
from pwscup.submissions.services.two_sided import two_sided_phase_check
from pwscup.submissions.services.uploads import (
    UploadWindow,
    check_size,
    original_name,
    upload_keep,
    uploader,
)
from scoring.errors import ScoringError
from scoring.scorer.unzip import ZIP_MAGIC, UnzipLimits, member_names
from scoring.scorer.upload_files import files_check


def files_refusal(*, scorer: ScorerRound, kind: str, uploaded_file, name: str):
    """Why the upload lacks a file the round requires of a ``kind`` upload (``release`` or
    ``attack``: ``release_files``, ``attack_files``) or holds one it refuses; ``None`` when
    it passes or the round requires nothing. Only names are read (a ZIP's member list, or
    the file's own name as the program would see it in ``res/``): nothing is unpacked."""
    rule = round_config(scorer.round).files_rule(kind)
    if rule.empty:
        return None
    check_size(uploaded_file)  # a ZIP's member list is read only within the upload cap
    try:
        uploaded_file.seek(0)
        if uploaded_file.read(4) in ZIP_MAGIC:
            uploaded_file.seek(0)
            names = member_names(uploaded_file, what="submission ZIP", limits=UnzipLimits())
        else:
            names = [res_name(name)]
        files_check(names, rule)
    except ScoringError as error:
        return JobMessage.from_scoring_error(error)
    finally:
        uploaded_file.seek(0)
    return None


def _kept(upload, *, task: str, refusal: JobMessage | None):
    """Send the kept upload's job, or store it FAILED with ``refusal`` at once (no job)."""
    if refusal is None:
        upload.dispatch = broker.job_send(task, upload.pk)
        return upload
    job_refuse(model=type(upload), pk=upload.pk, message=refusal)
    upload.refresh_from_db()
    upload.dispatch = Dispatch()
    return upload


def _window(*, round_, kind: str, uploads, target_uploads=None) -> UploadWindow:
    """``target_uploads``: the team's attacks on the upload's target (per-target rounds);
    an attack on every target has none, its phase's total limits it per upload."""
    phase = phase_of(round=round_, kind=kind)
    if phase is None:
        return UploadWindow(round=round_, uploads=uploads.none())
    return UploadWindow.limited_by(
        phase, round=round_, uploads=uploads, target_uploads=target_uploads
    )


def release_upload(*, scorer: ScorerRound, team: Team, user, uploaded_file, now=None) -> Release:
    """Keep a release as uploaded (QUEUED, through the core's upload pipeline: size cap,
    limits, failed-upload cap) and send it to a worker; refused (403) outside the release
    phase or once the round is frozen. A refused one (FAILED) costs no quota."""
    now = now or timezone.now()
    round_ = scorer.round
    slots_for_teams(scorer=scorer)

    def release_open() -> None:
        # Under the team's row lock: a freeze is seen before or after, never half.
        scorer.refresh_from_db(fields=["frozen_at"])
        if scorer.frozen_at is not None:
            raise Refused(_("The releases are frozen: the attack phase has begun."), status=403)
        two_sided_phase_check(round=round_, kind=Phase.Kind.ANONYMIZATION, now=now)
        hidden_ready_check(scorer=scorer)

    name = original_name(uploaded_file, default="release.zip")
    refusal = files_refusal(scorer=scorer, kind="release", uploaded_file=uploaded_file, name=name)
    release = upload_keep(
        model=Release,
        window=_window(
            round_=round_,
            kind=Phase.Kind.ANONYMIZATION,
            uploads=Release.objects.filter(scorer=scorer, team=team),
        ),
        team=team,
        uploaded_file=uploaded_file,
        stored_name=name,
        now=now,
        check=release_open,
        scorer=scorer,
        original_filename=name,
        uploaded_by=uploader(user),
    )
    return _kept(release, task=SCORE_RELEASE_TASK, refusal=refusal)


def release_select(*, release: Release, now=None) -> None:
    """Make a scored release the team's final one (the freeze publishes it); refused once
    the round is frozen or the release phase has closed."""
    now = now or timezone.now()
    scorer = release.scorer
    with transaction.atomic():
        Team.objects.select_for_update().get(pk=release.team_id)
        scorer.refresh_from_db(fields=["frozen_at"])
        if scorer.frozen_at is not None:
            raise Refused(
                _("The releases are frozen: the final release cannot change."), status=403
            )
        two_sided_phase_check(round=scorer.round, kind=Phase.Kind.ANONYMIZATION, now=now)
        if release.status != Release.Status.FINISHED:
            raise Refused(_("Only a scored release can be your final one."))
        Release.objects.filter(scorer=scorer, team_id=release.team_id).update(selected=False)
        Release.objects.filter(pk=release.pk).update(selected=True)
        release.selected = True


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
        two_sided_phase_check(round=round_, kind=Phase.Kind.ATTACK, now=now)
        scorer.refresh_from_db(fields=["frozen_at", "results_published"])
        if scorer.frozen_at is None:
            raise Refused(
                _("The releases are not frozen yet: there is nothing to attack."), status=403
            )
        if scorer.results_published:
            raise Refused(_("The results are published: the attack phase is over."), status=403)
        if target is not None and target.team_id == team.pk:
            raise Refused(_("A team does not attack its own release."), status=403)
        hidden_ready_check(scorer=scorer)

    default = f"{team.slug}_attack_{target.team.slug}.zip" if target else f"{team.slug}_attack.zip"
    name = original_name(uploaded_file, default=default)
    refusal = files_refusal(scorer=scorer, kind="attack", uploaded_file=uploaded_file, name=name)
    attack = upload_keep(
        model=Attack,
        window=_window(
            round_=round_,
            kind=Phase.Kind.ATTACK,
            uploads=Attack.objects.filter(scorer=scorer, team=team),
            target_uploads=(
                Attack.objects.filter(scorer=scorer, team=team, target=target)
                if target is not None
                else None
            ),
        ),
        team=team,
        uploaded_file=uploaded_file,
        stored_name=name,
        now=now,
        check=attack_open,
        scorer=scorer,
        target=target,
        original_filename=name,
        uploaded_by=uploader(user),
    )
    return _kept(attack, task=SCORE_ATTACK_TASK, refusal=refusal)
