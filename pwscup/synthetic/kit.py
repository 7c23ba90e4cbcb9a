"""A team's toolkit for a synthetic round (spec §7): the ZIP its pages hand it.

It holds what the team may have, no more: ``population.json`` (the original's domains,
ranges and bin edges: aggregates, no row), ``config.json``, the team's own members
``<team>_train.csv``, a sample release made from them by the kit's command (independent
marginals: uploadable as it is), a bilingual README with every ``python -m scoring synth``
command, and, once the releases are frozen, the auxiliary table ``aux.csv`` (public to every
team then) with the practice split's commands. Never the holdout, another team's rows, or
a membership label. ``pwscup.core.kits`` packs it with the toolkit wheel, so every command
runs the server's own code.
"""

from django.template.loader import render_to_string
from django.utils import timezone

from pwscup.accounts.models import Team
from pwscup.core.kits import KitFile, kit_readme_context
from pwscup.synthetic import engine, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SyntheticRound
from scoring.synthetic.config import GATE_KEYS
from scoring.synthetic.kit import independent_marginals, table_text

#: The toolkit extra this kind's kit and pages install (``pwscup.core.toolkit.EXTRAS``).
TOOLKIT_EXTRA = "synthetic"

# The sample release is the kit's command with its default seed.
SAMPLE_SEED = 0


def kit_filename(*, synthetic: SyntheticRound, team: Team) -> str:
    return f"{synthetic.round.slug}_{team.slug}_kit.zip"


def team_train_text(*, synthetic: SyntheticRound, team: Team) -> str:
    """The team's members ``T_X`` as the kit and the Data tab give them."""
    return files.members_csv(
        synthetic=synthetic, draw=services.team_draw(synthetic=synthetic, team=team)
    )


def sample_release_text(*, synthetic: SyntheticRound, team: Team) -> str:
    """What ``synth baseline <team>_train.csv`` writes: as many rows as the members, each
    cell drawn on its own from its column (seed ``SAMPLE_SEED``)."""
    draw = services.team_draw(synthetic=synthetic, team=team)
    population = engine.draw_population(synthetic, draw).population
    members = engine.rows_of(population, draw.members)
    return table_text(independent_marginals(members, rows=len(members), seed=SAMPLE_SEED))


def kit_files(*, synthetic: SyntheticRound, team: Team, now=None) -> list[KitFile]:
    """The kit's files for ``team`` (the toolkit wheel is added by ``kit_archive``)."""
    now = now or timezone.now()
    round_ = synthetic.round
    pack = engine.draw_population(synthetic, services.team_draw(synthetic=synthetic, team=team))
    population = pack.population
    config = population.config
    frozen = synthetic.frozen_at is not None
    practice_challenge = min(200, len(pack.aux) // 4 * 4)
    context = {
        **kit_readme_context(round_, who=team.name, now=now, extra=TOOLKIT_EXTRA),
        "who_slug": team.slug,
        "address": f"{round_.competition.slug}/{round_.slug}",
        "population": files.POPULATION_NAME,
        "config_name": files.CONFIG_NAME,
        "train": files.members_name(team),
        "release": files.release_name(team),
        "aux": files.AUX_NAME,
        "frozen": frozen,
        "n_train": config.n_train,
        "max_rows": config.max_rows,
        "min_rows": config.min_rows,
        "label": config.label,
        "levels": " ".join(f"{level:g}" for level in config.fpr_levels),
        "headline": config.headline,
        **{key: f"{getattr(config, key):g}" for key in ("density_bandwidth", *GATE_KEYS)},
        "n_challenge": config.n_challenge,
        "practice_challenge": practice_challenge,
    }
    members = [
        KitFile("README.md", render_to_string("synthetic/kit/README.md", context)),
        KitFile(files.POPULATION_NAME, files.population_text(population)),
        KitFile(files.CONFIG_NAME, files.config_text(population)),
        KitFile(files.members_name(team), team_train_text(synthetic=synthetic, team=team)),
        KitFile(files.release_name(team), sample_release_text(synthetic=synthetic, team=team)),
    ]
    if frozen:
        members.append(KitFile(files.AUX_NAME, files.aux_csv(synthetic=synthetic, key=pack.key)))
    return members
