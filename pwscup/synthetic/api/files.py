"""The files a synthetic round serves to a team, as CSV text: its own members table ``T_X``
(and, as JSON, its population's description and the round's settings, as the kit holds
them), and once the releases are frozen each target's challenge set (``id`` and the
original's columns, never a label) and the auxiliary table ``A``; and the names of every
file served, a target's release (served as uploaded) too. Reads only; who may have each file
is the caller's rule (``views.py``, and the pages' ``views/downloads.py``)."""

import json

from django.http import Http404
from django.utils.translation import gettext as _

from pwscup.synthetic import engine, selectors
from pwscup.synthetic.models import SynTarget, SyntheticRound, TeamDraw


def members_name(team) -> str:
    return f"{team.slug}_train.csv"


def members_csv(*, synthetic: SyntheticRound, draw: TeamDraw) -> str:
    """A team's members ``T_X`` (its own draw; never another team's)."""
    population = engine.draw_population(synthetic, draw).population
    return engine.table_text(engine.rows_of(population, draw.members))


POPULATION_NAME = "population.json"
CONFIG_NAME = "config.json"


def population_text(population) -> str:
    """``population.json``: what the kit's commands need of a team's population (domains,
    ranges, bin edges: aggregates, no row)."""
    return json.dumps(population.describe(), ensure_ascii=False, indent=1) + "\n"


def config_text(population) -> str:
    """``config.json``: the round's settings as the kit holds them."""
    return json.dumps(population.config.as_dict(), ensure_ascii=False, indent=2) + "\n"


def challenge_name(target: SynTarget) -> str:
    return f"{target.team.slug}_challenge.csv"


def challenge_csv(*, target: SynTarget) -> str:
    """The target's challenge set as published: ``id`` (1 … n) and the original's columns;
    which rows are members stays secret."""
    synthetic = target.synthetic
    draw = selectors.team_draw_of(synthetic=synthetic, team=target.team)
    if draw is None:
        raise Http404(_("This target has no challenge set."))
    population = engine.draw_population(synthetic, draw).population
    return engine.challenge_text(engine.rows_of(population, draw.challenge))


def release_name(team) -> str:
    """A team's release as its kit names it and a target is served: ``teamX_synthetic.csv``."""
    return f"{team.slug}_synthetic.csv"


AUX_NAME = "aux.csv"


def aux_csv(*, synthetic: SyntheticRound, key: str = "") -> str:
    """The auxiliary table ``A`` of the population ``key`` (``""``: the round's original),
    the same for every team in the attack phase: a round offering a data choice has one per
    pack, the reference of the targets drawn from that pack."""
    pack = engine.population_of(synthetic, key)
    return engine.table_text(engine.rows_of(pack.population, pack.aux))


def aux_name(key: str = "") -> str:
    """``aux.csv``, or ``<pack>.aux.csv`` for a data pack's population."""
    return f"{key}.{AUX_NAME}" if key else AUX_NAME
