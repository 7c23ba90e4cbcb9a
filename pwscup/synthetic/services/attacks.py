"""The attack phase (spec §4): ``teamX_mia_teamY.csv`` on another team's target, kept
through the core's upload pipeline while the attack phase is open, scored by a worker on
the dev half (shown live) and the final half (kept hidden until the results are published)."""

import numpy as np
from django.utils import timezone

from pwscup.accounts.models import Team
from pwscup.submissions import broker
from pwscup.submissions.services.jobs import job_claim, job_complete, job_run
from pwscup.submissions.services.two_sided import (
    ATTACK,
    two_sided_attack_open,
    two_sided_upload_window,
)
from pwscup.submissions.services.uploads import upload_keep
from pwscup.synthetic import engine
from pwscup.synthetic.models import SynAttack, SynTarget, TeamDraw
from pwscup.synthetic.services.common import SCORE_ATTACK_TASK, stored_bytes
from scoring.synthetic.attack import read_attack, score_attack


def attack_upload(*, target: SynTarget, team: Team, user, uploaded_file, now=None) -> SynAttack:
    """Keep an attack on ``target`` as uploaded (QUEUED) and send its scoring to a worker;
    refused (403) outside the attack phase, on the team's own release, or once the
    results are published."""
    now = now or timezone.now()
    synthetic = target.synthetic

    def attack_open() -> None:
        two_sided_attack_open(state=synthetic, team=team, target=target, now=now)

    default_name = f"{team.slug}_mia_{target.team.slug}.csv"
    attack = upload_keep(
        model=SynAttack,
        window=two_sided_upload_window(
            round=synthetic.round,
            kind=ATTACK,
            uploads=SynAttack.objects.filter(target__synthetic=synthetic, team=team),
            target_uploads=SynAttack.objects.filter(target=target, team=team),
        ),
        team=team,
        uploaded_file=uploaded_file,
        stored_name=default_name,
        now=now,
        check=attack_open,
        target=target,
        user=user,
    )
    attack.dispatch = broker.job_send(SCORE_ATTACK_TASK, attack.pk)
    return attack


def attack_score(*, attack_id: int, task_id: str = "", worker: str = "") -> None:
    """The attack's job: ``id,score`` checked (every challenge id once, finite scores),
    then AUC, TPR at the round's FPR levels and the advantage on each half."""
    token = job_claim(model=SynAttack, pk=attack_id, task_id=task_id, worker=worker)
    if token is None:
        return
    attack = SynAttack.objects.select_related("target__synthetic__round", "target__team").get(
        pk=attack_id
    )
    synthetic = attack.target.synthetic

    def compute() -> dict:
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

    status, message, values = job_run(compute, what=f"synthetic attack {attack_id}")
    job_complete(
        model=SynAttack, pk=attack_id, token=token, status=status, message=message, **values
    )
