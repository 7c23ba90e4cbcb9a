"""The attack phase (spec §4): ``teamX_mia_teamY.csv`` on another team's target, kept
through the core's upload pipeline while the attack phase is open, scored by a worker on
the dev half (shown live) and the final half (kept hidden until the results are published)."""

import numpy as np
from django.utils import timezone

from pwscup.accounts.models import Team
from pwscup.core.stored import stored_bytes
from pwscup.submissions.services.jobs import job_execute
from pwscup.submissions.services.two_sided import (
    ATTACK,
    two_sided_upload_keep,
)
from pwscup.synthetic import engine
from pwscup.synthetic.models import SynAttack, SynTarget, TeamDraw
from pwscup.synthetic.services.common import SCORE_ATTACK_TASK
from scoring.synthetic.attack import read_attack, score_attack


def attack_upload(*, target: SynTarget, team: Team, user, uploaded_file, now=None) -> SynAttack:
    """Keep an attack on ``target`` as uploaded (QUEUED) and send its scoring to a worker;
    refused (403) outside the attack phase, on the team's own release, or once the
    results are published."""
    synthetic = target.synthetic
    return two_sided_upload_keep(
        state=synthetic,
        kind=ATTACK,
        model=SynAttack,
        uploads=SynAttack.objects.filter(target__synthetic=synthetic, team=team),
        target_uploads=SynAttack.objects.filter(target=target, team=team),
        task=SCORE_ATTACK_TASK,
        team=team,
        uploaded_file=uploaded_file,
        stored_name=f"{team.slug}_mia_{target.team.slug}.csv",
        now=now or timezone.now(),
        target=target,
        user=user,
    )


def attack_score(*, attack_id: int, task_id: str = "", worker: str = "") -> None:
    """The attack's job: ``id,score`` checked (every challenge id once, finite scores),
    then AUC, TPR at the round's FPR levels and the advantage on each half."""

    def compute(attack: SynAttack) -> dict:
        synthetic = attack.target.synthetic
        config = engine.round_config(synthetic.round)
        draw = TeamDraw.objects.get(synthetic=synthetic, team_id=attack.target.team_id)
        scores = read_attack(
            stored_bytes(attack.file), len(draw.challenge), name=attack.original_filename
        )
        result = score_attack(
            scores,
            np.asarray(draw.labels),
            np.asarray(draw.dev, dtype=bool),
            fpr_levels=config.fpr_levels,
        )
        return {"dev": result.dev, "final": result.final, "final_roc": result.final_roc}

    job_execute(model=SynAttack, pk=attack_id, compute=compute, task_id=task_id, worker=worker)
