"""The round's draws (spec §1): the holdout ``H`` and the auxiliary table ``A`` when the
round is created (or a data pack's population is uploaded), each team's members, non-members
and challenge set the first time the team needs them, from the round's secret seed, and
kept: a team's draw never changes, and a team joining late draws from what the others left.

A round offering no data choice draws a team when it joins (``teams_changed``). A round
offering one draws a team only when it first needs its data (a download or an upload), from
its pack's population (``engine.team_population``), and that draw locks its pick (the core's
``choice_lock``): the rows it holds are of that pack. The rows other teams took are counted
per population."""

import numpy as np
from django.db import transaction

from pwscup.accounts.models import Team
from pwscup.competitions.choice_selectors import round_choices
from pwscup.competitions.choice_services import choice_lock
from pwscup.submissions.services.two_sided import two_sided_locked
from pwscup.synthetic import engine
from pwscup.synthetic.models import SyntheticRound, TeamDraw
from scoring.synthetic.draws import SharedDraw, draw_team


def _shared(pack: engine.PackData) -> SharedDraw:
    return SharedDraw(
        holdout=np.asarray(pack.holdout, dtype=np.int64),
        aux=np.asarray(pack.aux, dtype=np.int64),
    )


def _taken(drawn: list[TeamDraw], key: str) -> np.ndarray:
    """The rows the teams drawn from the population ``key`` hold."""
    return np.asarray(
        sorted(
            {
                row
                for draw in drawn
                if draw.choice_key == key
                for row in (*draw.members, *draw.nonmembers)
            }
        ),
        dtype=np.int64,
    )


def draws_for_teams(*, synthetic: SyntheticRound, teams=None) -> list[TeamDraw]:
    """Draw every team of the competition (or of ``teams``) that has no draw yet, in the
    order the teams were created, under the round's row lock (two registrations at once
    draw one after the other, never the same rows), each from its pack's population (its
    pick then locked). Returns the new draws. Raises ``Refused`` (409) when a team's pack
    has no population yet (``engine.population_missing``)."""
    with transaction.atomic():
        synthetic = two_sided_locked(synthetic)
        round_ = synthetic.round
        drawn = list(TeamDraw.objects.filter(synthetic=synthetic))
        have = {draw.team_id for draw in drawn}
        if teams is None:
            teams = Team.objects.filter(competition_id=round_.competition_id)
        new = []
        for team in sorted((t for t in teams if t.pk not in have), key=lambda t: t.pk):
            pack = engine.team_population(synthetic, team)
            draw = draw_team(
                len(pack.population.frame),
                pack.population.config,
                seed=synthetic.secret_seed,
                team=str(team.pk),
                shared=_shared(pack),
                taken=_taken(drawn, pack.key),
            )
            if pack.key:
                choice_lock(round=round_, team=team)
            kept = TeamDraw.objects.create(
                synthetic=synthetic,
                team=team,
                members=draw.members.tolist(),
                nonmembers=draw.nonmembers.tolist(),
                challenge=draw.challenge.tolist(),
                labels=draw.labels.tolist(),
                dev=draw.dev.tolist(),
                disjoint=draw.disjoint,
                choice_key=pack.key,
            )
            new.append(kept)
            drawn.append(kept)
            have.add(team.pk)
        return new


def team_draw(*, synthetic: SyntheticRound, team: Team) -> TeamDraw:
    """The team's draw, drawn now if it has none yet (``Refused`` when its pack has no
    population yet)."""
    draw = TeamDraw.objects.filter(synthetic=synthetic, team=team).first()
    if draw is None:
        draws_for_teams(synthetic=synthetic, teams=[team])
        draw = TeamDraw.objects.get(synthetic=synthetic, team=team)
    return draw


def teams_changed(*, round) -> list[TeamDraw]:
    """The kind's team hook: a team that joined gets its draw at once, unless the round
    offers a data choice (then a team is drawn when it first needs its data, from the pack
    it picked by then)."""
    synthetic = SyntheticRound.objects.filter(round=round).first()
    if synthetic is None or round_choices(round=round):
        return []
    return draws_for_teams(synthetic=synthetic)
