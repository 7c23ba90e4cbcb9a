"""The round's draws (spec §1): the holdout ``H`` and the auxiliary table ``A`` when the
round is created, each team's members, non-members and challenge set the first time the
team needs them (or when it joins), from the round's secret seed, and kept: a team's draw
never changes, and a team joining late draws from what the others left."""

import numpy as np
from django.db import transaction

from pwscup.accounts.models import Team
from pwscup.synthetic import engine
from pwscup.synthetic.models import SyntheticRound, TeamDraw
from pwscup.synthetic.services.common import locked
from scoring.synthetic.draws import SharedDraw, draw_team


def _shared(synthetic: SyntheticRound) -> SharedDraw:
    return SharedDraw(
        holdout=np.asarray(synthetic.holdout, dtype=np.int64),
        aux=np.asarray(synthetic.aux, dtype=np.int64),
    )


def draws_for_teams(*, synthetic: SyntheticRound, teams=None) -> list[TeamDraw]:
    """Draw every team of the competition (or of ``teams``) that has no draw yet, in the
    order the teams were created, under the round's row lock (two registrations at once
    draw one after the other, never the same rows). Returns the new draws."""
    with transaction.atomic():
        synthetic = locked(synthetic)
        population = engine.round_population(synthetic.round)
        config = population.config
        drawn = list(TeamDraw.objects.filter(synthetic=synthetic))
        have = {draw.team_id for draw in drawn}
        taken = np.asarray(
            sorted({row for draw in drawn for row in (*draw.members, *draw.nonmembers)}),
            dtype=np.int64,
        )
        if teams is None:
            teams = Team.objects.filter(competition_id=synthetic.round.competition_id)
        new = []
        for team in sorted((t for t in teams if t.pk not in have), key=lambda t: t.pk):
            draw = draw_team(
                len(population.frame),
                config,
                seed=synthetic.secret_seed,
                team=str(team.pk),
                shared=_shared(synthetic),
                taken=taken,
            )
            new.append(
                TeamDraw.objects.create(
                    synthetic=synthetic,
                    team=team,
                    members=draw.members.tolist(),
                    nonmembers=draw.nonmembers.tolist(),
                    challenge=draw.challenge.tolist(),
                    labels=draw.labels.tolist(),
                    dev=draw.dev.tolist(),
                    disjoint=draw.disjoint,
                )
            )
            taken = np.union1d(taken, draw.rows_taken())
            have.add(team.pk)
        return new


def team_draw(*, synthetic: SyntheticRound, team: Team) -> TeamDraw:
    """The team's draw, drawn now if it has none yet."""
    draw = TeamDraw.objects.filter(synthetic=synthetic, team=team).first()
    if draw is None:
        draws_for_teams(synthetic=synthetic, teams=[team])
        draw = TeamDraw.objects.get(synthetic=synthetic, team=team)
    return draw


def teams_changed(*, round) -> list[TeamDraw]:
    """The kind's team hook: a team that joined gets its draw at once."""
    synthetic = SyntheticRound.objects.filter(round=round).first()
    if synthetic is None:
        return []
    return draws_for_teams(synthetic=synthetic)
