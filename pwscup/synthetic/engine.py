"""The bridge between the round's stored data and ``scoring.synthetic`` (pure maths): its
checked configuration, its populations (the round's original, or one per data pack when the
round offers a choice: cached per process, a population is fixed once stored), the one a
team's rows come from (``team_population``), and the tables a team's draw names. Reads only;
the services write."""

import json
from dataclasses import dataclass

from django.utils.translation import gettext as _

from pwscup.competitions.choice_selectors import team_choice_key
from pwscup.core.errors import Refused
from pwscup.core.process_cache import ProcessCache
from pwscup.core.stored import stored_bytes
from pwscup.synthetic.models import SynPopulation, SyntheticRound, TeamDraw
from scoring.synthetic.config import SynthConfig, parse_config

# The tables as the round serves them: the pure library's writers.
from scoring.synthetic.kit import challenge_text as challenge_text
from scoring.synthetic.kit import table_text as table_text
from scoring.synthetic.population import Population, read_population
from scoring.tables import load_table

# The draws' sizes in a round's settings (``scoring.synthetic.draws.disjoint_teams``'s keywords).
SIZE_KEYS = ("n_holdout", "n_aux", "n_train", "n_challenge")


def header_of(data: bytes) -> list[str]:
    """The header of an organizer's CSV (UTF-8)."""
    return [str(c) for c in load_table(data, name="original.csv").to_frame().columns]


def config_in_order(config: dict, header: list[str]) -> dict:
    """``config`` with its column roles in the original's column order: a JSON field stored
    in PostgreSQL (jsonb) does not keep the order of keys, the header does."""
    columns = config.get("columns")
    if not isinstance(columns, dict):
        return config
    ordered = {c: columns[c] for c in header if c in columns}
    ordered.update({c: r for c, r in columns.items() if c not in ordered})
    return {**config, "columns": ordered}


def round_config(round_) -> SynthConfig:
    """The round's checked configuration (``Round.config``), columns in the original's order."""
    return round_population(round_).config


def round_population(round_) -> Population:
    """The round's population ``P``: its typed rows, domains, ranges and bin edges; kept per
    process by the original's hash and the settings (both fixed once the round exists)."""
    return _population(round_.original_file, round_.original_sha256, round_.config)


def _population(field, sha256: str, config: dict) -> Population:
    def read() -> Population:
        data = stored_bytes(field)
        header = header_of(data)
        return read_population(data, parse_config(config_in_order(config, header), header))

    return _POPULATIONS.get((sha256, json.dumps(config, sort_keys=True)), read)


# A handful of rounds' populations per process (a few MB each for a table like Adult).
_POPULATIONS = ProcessCache(8)


@dataclass(frozen=True)
class PackData:
    """The population a team's rows come from, with its holdout ``H`` and auxiliary table
    ``A`` (0-based rows of it): the round's own original (``key`` ``""``: a round offering no
    data choice) or the population of the data pack ``key``. ``H`` and ``A`` are read from
    the row that keeps them (``source``: the round's synthetic part, or the pack's
    ``SynPopulation``) when asked for: the pages show the population alone, and the round
    page's cached row leaves them out (``SyntheticKind.counted_row_defer``)."""

    key: str
    population: Population
    source: object

    @property
    def holdout(self) -> list:
        return self.source.holdout

    @property
    def aux(self) -> list:
        return self.source.aux


def population_missing(key: str) -> Refused:
    """The refusal of a draw (a download, an upload) from a pack with no population yet."""
    return Refused(
        _(
            "The organizers have not uploaded the population of the data pack %(key)s yet: "
            "your team's data cannot be drawn until they do."
        )
        % {"key": key},
        status=409,
        code="population_missing",
    )


def population_of(synthetic: SyntheticRound, key: str) -> PackData:
    """The population of the data pack ``key`` (``""``: the round's original). Raises
    ``Refused`` (409) when the pack has no population uploaded yet."""
    if not key:
        return PackData(key="", population=round_population(synthetic.round), source=synthetic)
    stored = SynPopulation.objects.filter(synthetic=synthetic, choice_key=key).first()
    if stored is None:
        raise population_missing(key)
    return PackData(
        key=key,
        population=_population(stored.file, stored.sha256, synthetic.round.config),
        source=stored,
    )


def draw_pack_key(*, synthetic: SyntheticRound, team, draws=None) -> str:
    """The pack a team's rows come from: its draw's once drawn (a draw never changes),
    before that the core's ``team_choice`` (its pick, else the round's first pack; ``""``
    for a round offering no choice). ``draws``: the round's draws already read
    (``selectors.round_draws``), else the team's is read here."""
    if draws is not None:
        drawn = next((draw.choice_key for draw in draws if draw.team_id == team.pk), None)
    else:
        drawn = (
            TeamDraw.objects.filter(synthetic=synthetic, team=team)
            .values_list("choice_key", flat=True)
            .first()
        )
    if drawn is not None:
        return drawn
    return team_choice_key(round=synthetic.round, team=team)


def team_population(synthetic: SyntheticRound, team, draws=None) -> PackData:
    """The population (with its ``H`` and ``A``) a team's rows come from, or will
    (``draws``: as ``draw_pack_key`` takes them)."""
    return population_of(synthetic, draw_pack_key(synthetic=synthetic, team=team, draws=draws))


def draw_population(synthetic: SyntheticRound, draw: TeamDraw) -> PackData:
    """The population a kept draw's rows are of."""
    return population_of(synthetic, draw.choice_key)


# The typed rows of ``P`` at 0-based positions, renumbered from 0: the pure library's
# ``Population.rows``, by the name the services and the tests read them with.
rows_of = Population.rows
