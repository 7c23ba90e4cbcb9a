"""The files a synthetic round serves to a team, as CSV text: its own members table ``T_X``,
and once the releases are frozen each target's release, its challenge set (``id`` and the
original's columns, never a label) and the auxiliary table ``A``. Reads only; who may have
each file is the caller's rule (``views.py``)."""

from pwscup.synthetic import engine
from pwscup.synthetic.models import SynTarget, SyntheticRound, TeamDraw
from pwscup.synthetic.services.common import stored_bytes


def members_name(team) -> str:
    return f"{team.slug}_train.csv"


def members_csv(*, synthetic: SyntheticRound, draw: TeamDraw) -> str:
    """A team's members ``T_X`` (its own draw; never another team's)."""
    population = engine.round_population(synthetic.round)
    return engine.table_text(engine.rows_of(population, draw.members))


def challenge_name(target: SynTarget) -> str:
    return f"{target.team.slug}_challenge.csv"


def challenge_csv(*, target: SynTarget) -> str:
    """The target's challenge set as published: ``id`` (1 … n) and the original's columns;
    which rows are members stays secret."""
    synthetic = target.synthetic
    draw = TeamDraw.objects.get(synthetic=synthetic, team_id=target.team_id)
    population = engine.round_population(synthetic.round)
    return engine.challenge_text(engine.rows_of(population, draw.challenge))


def release_name(target: SynTarget) -> str:
    return f"{target.team.slug}_synthetic.csv"


def release_bytes(*, target: SynTarget) -> bytes:
    """The target's frozen release, as its team uploaded it."""
    return stored_bytes(target.release.file)


AUX_NAME = "aux.csv"


def aux_csv(*, synthetic: SyntheticRound) -> str:
    """The auxiliary table ``A``, the same for every team in the attack phase."""
    population = engine.round_population(synthetic.round)
    return engine.table_text(engine.rows_of(population, synthetic.aux))
