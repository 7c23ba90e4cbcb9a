"""The freeze (spec §3): each team's final release (selected, else its last valid one) is
fixed and published as a target, with its challenge set and the auxiliary table; a worker
scores the built-in attacks on it (``target_score``)."""

import numpy as np
from django.utils import timezone

from pwscup.competitions.models import Phase
from pwscup.core.stored import stored_bytes
from pwscup.submissions.services.jobs import job_execute, queued_values
from pwscup.submissions.services.two_sided_freeze import (
    two_sided_attack_phase_open_now,
    two_sided_freeze,
)
from pwscup.synthetic import engine, selectors
from pwscup.synthetic.models import SynTarget, SyntheticRound, TeamDraw
from pwscup.synthetic.services.common import SCORE_TARGET_TASK
from scoring.synthetic.attack import dcr_attack, density_attack, null_attack, score_attack
from scoring.synthetic.release import read_release


def round_freeze(
    *, synthetic: SyntheticRound, user=None, now=None, early: bool = False
) -> list[SynTarget]:
    """Publish every team's final release as a target; uploads of releases are refused from
    now. Freezing again republishes only the targets whose final release changed (and
    their built-in attacks are scored again). Before the release phase opens, only ``early``
    (``two_sided_freeze``). Returns the targets (re)published."""
    now = now or timezone.now()
    return two_sided_freeze(
        state=synthetic,
        final_release=lambda state, team: selectors.final_release(synthetic=state, team=team),
        user=user,
        now=now,
        early=early,
        # A republished target's built-in attacks run again, from a fresh job.
        target_defaults={"builtin": {}, **queued_values(now), "finished_at": None},
        target_task=SCORE_TARGET_TASK,
    )


def attack_phase_open_now(
    *, synthetic: SyntheticRound, user=None, now=None, early: bool = False
) -> tuple[list[SynTarget], Phase]:
    """The organizer's way from the release phase to the attack phase ahead of the schedule
    (a class playing both phases in one lesson): the release phase closes now, the releases
    are frozen (``round_freeze``) and the attack phase opens now; it keeps its closing time
    when that is still ahead, else it runs for its planned length from now
    (``round_phase_open_now``, the core's rule). Refused once the results are published: a
    published ranking never changes. Returns the targets (re)published and the phase."""
    return two_sided_attack_phase_open_now(
        state=synthetic,
        freeze=lambda state, now: round_freeze(synthetic=state, user=user, now=now),
        user=user,
        now=now,
        early=early,
    )


def builtin_attacks(*, synthetic: SyntheticRound, target: SynTarget) -> dict:
    """The built-in attacks' scores on a target: name → ``{"dev", "final", "final_roc"}``."""
    draw = TeamDraw.objects.get(synthetic=synthetic, team=target.team)
    # The target team's population: its release, its challenge set and the auxiliary table
    # the density attack calibrates on are all of the pack its rows were drawn from.
    pack = engine.draw_population(synthetic, draw)
    population = pack.population
    config = population.config
    release = read_release(stored_bytes(target.release.file), population)
    challenge = engine.rows_of(population, draw.challenge)
    aux = engine.rows_of(population, pack.aux)
    labels, dev = np.asarray(draw.labels), np.asarray(draw.dev, dtype=bool)
    answers = {
        "dcr": dcr_attack(release, challenge, population),
        "density": density_attack(release, aux, challenge, population),
        "null": null_attack(
            len(draw.challenge), seed=synthetic.secret_seed, target=str(target.team_id)
        ),
    }
    out = {}
    for name, scores in answers.items():
        result = score_attack(scores, labels, dev, fpr_levels=config.fpr_levels)
        out[name] = {"dev": result.dev, "final": result.final, "final_roc": result.final_roc}
    return out


def target_score(*, target_id: int, task_id: str = "", worker: str = "") -> None:
    """The target's job: score the built-in attacks (DCR, density, null) on it."""
    job_execute(
        model=SynTarget,
        pk=target_id,
        compute=lambda target: {
            "builtin": builtin_attacks(synthetic=target.synthetic, target=target)
        },
        task_id=task_id,
        worker=worker,
    )
