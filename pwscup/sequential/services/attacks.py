"""The attack phase: after the last freeze every complete sequence is published as a target
(spec §10), the other teams' ``pid,guess`` files are kept through the core's upload pipeline
and scored by a worker (``attack_score``) until the phase's planned close, if the organizer
set one (``SequentialRound.attack_closes_at``); publishing the results ends the phase."""

from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.accounts.models import Team
from pwscup.core.errors import Refused
from pwscup.core.stored import stored_bytes
from pwscup.sequential import engine, selectors
from pwscup.sequential.models import SeqAttack, SeqTarget, SequenceScore, SequentialRound
from pwscup.sequential.services.common import SCORE_ATTACK_TASK
from pwscup.sequential.services.masters import master_frame
from pwscup.submissions import broker
from pwscup.submissions.services.jobs import job_execute
from pwscup.submissions.services.publication import results_shown
from pwscup.submissions.services.uploads import (
    UploadWindow,
    upload_keep,
)
from pwscup.submissions.services.windows import window_check


def targets_publish(*, sequential: SequentialRound) -> list[SeqTarget]:
    """Publish every complete sequence (spec §10): releases without pids, renumbered; the
    background table; the counterfeit counts. The built-in MAP attackers' accuracies are the
    sequence's ``MAP_N`` and ``MAP_A``."""
    targets = []
    n = sequential.n_releases
    for score in SequenceScore.objects.filter(sequential=sequential, step=n, complete=True):
        team = score.team
        master = selectors.team_master(sequential=sequential, team=team)
        releases = selectors.team_sequence(sequential=sequential, team=team, upto=n, frozen=True)
        files = engine.target_files(
            master_frame(master=master),
            [stored_bytes(release.file) for release in releases],
            sequential.config,
            prefix=f"{team.slug}_",
            seed=sequential.secret_seed ^ team.pk,
        )
        target, _created = SeqTarget.objects.update_or_create(
            sequential=sequential,
            team=team,
            defaults={
                "files": files,
                "map_n": score.results.get("MAP_N"),
                "map_a": score.results.get("MAP_A"),
            },
        )
        targets.append(target)
    return targets


def attack_upload(*, target: SeqTarget, team: Team, user, uploaded_file, now=None) -> SeqAttack:
    """Keep a ``pid,guess`` file on another team's sequence as uploaded (QUEUED, through
    the core's upload pipeline, under the attack phase's limits: ``attack_window``) and
    send its scoring to a worker (``attack_score``)."""
    sequential = target.sequential
    now = now or timezone.now()

    def attack_open() -> None:
        sequential.refresh_from_db(fields=["frozen_steps", "results_published", "attack_closes_at"])
        if not sequential.attack_phase_begun:
            raise Refused(_("The attack phase is not open."), status=403)
        if sequential.results_published:
            raise Refused(_("The results are published: the attack phase is over."), status=403)
        window_check(  # its planned close, the core's refusal (403)
            label=_("Attack phase"),
            opens_at=None,  # it opens when the last release is frozen, above
            closes_at=sequential.attack_closes_at,
            time_zone=sequential.round.timezone,
            now=now,
        )
        if target.team_id == team.pk:
            raise Refused(_("A team does not attack its own releases."), status=403)

    attack = upload_keep(
        model=SeqAttack,
        window=attack_window(sequential=sequential, team=team, target=target),
        team=team,
        uploaded_file=uploaded_file,
        stored_name="attack.csv",
        now=now,
        check=attack_open,
        target=target,
        user=user,
    )
    broker.job_send(SCORE_ATTACK_TASK, attack.pk)
    return attack


def attack_window(*, sequential: SequentialRound, team: Team, target: SeqTarget) -> UploadWindow:
    """What a guess file counts against: the team's guess files of the round, under the
    attack phase's daily and total limits, and those on ``target`` under its per-target
    limit (rejected files are free, as every upload's)."""
    uploads = SeqAttack.objects.filter(target__sequential=sequential, team=team)
    return UploadWindow(
        round=sequential.round,
        uploads=uploads,
        daily_limit=sequential.attack_daily_limit,
        total_limit=sequential.attack_total_limit,
        target_uploads=uploads.filter(target=target),
        target_limit=sequential.attack_target_limit,
    )


def attack_score(*, attack_id: int, task_id: str = "", worker: str = "") -> None:
    """The attack's job (QUEUED → RUNNING → FINISHED/FAILED, the core's state machine): the
    accuracy of the guesses on the target's persons."""

    def compute(attack: SeqAttack) -> dict:
        sequential = attack.target.sequential
        master = selectors.team_master(sequential=sequential, team=attack.target.team)
        accuracy = engine.attack_accuracy(
            master_frame(master=master),
            stored_bytes(attack.file),
            sequential.config,
            name=attack.original_filename or "attack.csv",
        )
        return {"accuracy": accuracy}

    job_execute(model=SeqAttack, pk=attack_id, compute=compute, task_id=task_id, worker=worker)


def results_publish(*, sequential: SequentialRound, published: bool = True, user=None) -> None:
    """Show the leaderboard (and attack matrix) to everyone, which ends the attack phase, or
    to the organizers only again: the core's ``results_shown`` (recorded in the audit log
    when ``user`` acts; participants are told once)."""
    results_shown(state=sequential, published=published, user=user)
