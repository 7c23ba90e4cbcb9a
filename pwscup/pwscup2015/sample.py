"""The sample submission of a round (reads only): an anonymized copy of the reader's own data
(the round's original, or the team's sample in the per-team mode) made with the starter
kit's methods, that uploads as is and passes the round's utility gates — to see how scoring
works, not to win.

The recipes are tried in order, each deterministic (fixed seeds); the first whose scores pass
the round's gates is the sample. A round without gates takes the first recipe that makes a
valid submission, without scoring it. When no recipe keeps the gates, the last one (a plain
copy with one column generalized) is the sample and ``passes_gates`` says so: the Data tab
then says it will be listed unranked.

Making a sample of a large table takes seconds (and scoring it, when the round has gates),
so the result is kept in the cache under the data's version, the configuration and the
gates; the Data tab reads only the small summary kept beside it.
"""

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd
from django.core.cache import cache
from django.utils.translation import gettext_lazy as _

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.competitions.selectors import round_original_table, table_config
from pwscup.pwscup2015.ranking import parse_gates, passes_gates
from pwscup.pwscup2015.selectors import team_dataset, team_original_table
from pwscup.pwscup2015.value_ranges import parse_value_ranges
from scoring import kit

CACHE_SECONDS = 24 * 3600


def _kit_example(table, config, hierarchy):
    """What the kit's ``anonymize_example.py`` does."""
    out = kit.generalize(table, config, hierarchy=hierarchy, levels=dict.fromkeys(hierarchy, 1))
    out = kit.swap_in_class(out, config, seed=1)
    return kit.delete_outliers(out, config, d=1)


def _swap_only(table, config, hierarchy):
    return kit.swap_in_class(table, config, seed=1)


def _generalize_only(table, config, hierarchy):
    return kit.generalize(table, config, hierarchy=hierarchy, levels=dict.fromkeys(hierarchy, 1))


def _one_column(table, config, hierarchy):
    """A plain copy with one QI column generalized: outside the cross tabulation if it can
    (U1–U5 then stay 0)."""
    columns = [c for c in config.qi if c in hierarchy]
    outside = [c for c in columns if c not in config.cross]
    column = (outside or columns)[0]
    return kit.generalize(table, config, hierarchy=hierarchy, levels={column: 1})


@dataclass(frozen=True)
class Recipe:
    key: str
    description: object  # a lazy translation
    make: Callable


RECIPES = (
    Recipe(
        "kit_example",
        _(
            "made like the kit's anonymize_example.py: the QI columns generalized one level, "
            "the numbers swapped among people who look alike, the most outlying row deleted"
        ),
        _kit_example,
    ),
    Recipe(
        "swap_in_class",
        _("the numbers swapped among people who look alike on the QI columns"),
        _swap_only,
    ),
    Recipe("generalize", _("the QI columns generalized one level"), _generalize_only),
    Recipe(
        "one_column", _("a plain copy of your data with one QI column generalized"), _one_column
    ),
    Recipe("copy", _("a plain copy of your data, not anonymized at all"), lambda t, c, h: t.copy()),
)
FALLBACK = "one_column"
RECIPE_BY_KEY = {recipe.key: recipe for recipe in RECIPES}


@dataclass(frozen=True)
class SampleSummary:
    """What the Data tab says about a sample made before (``passes_gates`` is ``None`` for a
    round without gates)."""

    recipe: str
    passes_gates: bool | None

    @property
    def description(self):
        return RECIPE_BY_KEY[self.recipe].description


@dataclass(frozen=True)
class SampleSubmission:
    content: bytes
    filename: str
    summary: SampleSummary


def sample_filename(*, round: Round, team: Team | None) -> str:
    prefix = team.slug if team is not None else round.slug
    return f"{prefix}_sample_anonymized.csv"


def data_version(*, round: Round, team: Team | None) -> str | None:
    """The version of the reader's data (``None``: a per-team round without the team's
    sample): the cache's key, read without reading the data."""
    if round.pwscup2015.is_per_team and team is not None:
        dataset = team_dataset(round=round, team=team)
        return None if dataset is None else f"dataset-{dataset.pk}-{dataset.file.name}"
    return f"original-{round.original_sha256}"


def reader_data(*, round: Round, team: Team | None):
    """``(table, config)``: the reader's own data, as the data download gives it."""
    if team is not None:
        return team_original_table(round=round, team=team)
    table = round_original_table(round=round)
    return table, table_config(round=round, table=table)


def _cache_key(*, round: Round, version: str) -> str:
    game = round.pwscup2015
    settings_ = json.dumps([round.config, game.utility_gates, game.value_ranges], sort_keys=True)
    digest = hashlib.sha256(f"{version}|{settings_}|{scoring.SCORER_VERSION}".encode())
    return f"pwscup2015:sample:{round.pk}:{digest.hexdigest()[:32]}"


def _make(table: pd.DataFrame, config, round: Round) -> tuple[pd.DataFrame, SampleSummary]:
    hierarchy = kit.attr_depth_example(table, config)
    checks_gates = bool(parse_gates(round.pwscup2015.utility_gates))
    ranges = parse_value_ranges(round.pwscup2015.value_ranges)
    valid = []
    for recipe in RECIPES:
        try:
            anonymized = _within_ranges(recipe.make(table, config, hierarchy), ranges)
            scoring.validate_submission(table, anonymized, config, value_ranges=ranges)
        except scoring.ScoringError:
            continue  # this recipe does not fit these data: the next one may
        if not checks_gates:
            return anonymized, SampleSummary(recipe.key, None)
        scores = scoring.evaluate(table, anonymized, config, value_ranges=ranges)
        if passes_gates(scores, round):
            return anonymized, SampleSummary(recipe.key, True)
        valid.append((anonymized, recipe))
    if not valid:  # a range the original's own values break: the kit's example, refused
        return anonymized, SampleSummary(recipe.key, False)
    # No recipe keeps the gates: the plain copy with one column generalized (the plain
    # copy if even that does not apply); the Data tab says it is listed unranked.
    anonymized, recipe = next((v for v in valid if v[1].key == FALLBACK), valid[-1])
    return anonymized, SampleSummary(recipe.key, False)


def _within_ranges(table: pd.DataFrame, ranges: dict) -> pd.DataFrame:
    """The round's range rule kept: a number outside a column's range becomes its bound."""
    out = table
    for column, (low, high) in ranges.items():
        values = pd.to_numeric(table[column], errors="coerce")
        outside = values.notna() & ((values < low) | (values > high))
        if outside.any():
            out = out.copy() if out is table else out
            out.loc[outside, column] = [f"{v:g}" for v in values[outside].clip(low, high)]
    return out


def sample_summary(
    *, round: Round, team: Team | None, version: str | None = None
) -> SampleSummary | None:
    """The summary of the reader's sample if it was made before (else ``None``); reads the
    cache only, never the data (``version``: the reader's ``data_version``, if read)."""
    version = version or data_version(round=round, team=team)
    if version is None:
        return None
    found = cache.get(_cache_key(round=round, version=version) + ":summary")
    return SampleSummary(*found) if found else None


def sample_submission(*, round: Round, team: Team | None) -> SampleSubmission:
    """The sample submission of ``team`` (of the round's original for an organizer outside
    the teams). The caller has checked that the reader may download the data."""
    key = _cache_key(round=round, version=data_version(round=round, team=team))
    filename = sample_filename(round=round, team=team)
    cached = cache.get(key)
    if cached:
        content, recipe, passes = cached
        return SampleSubmission(content, filename, SampleSummary(recipe, passes))
    table, config = reader_data(round=round, team=team)  # read only when not made before
    anonymized, summary = _make(table, config, round)
    content = anonymized.to_csv(index=False, lineterminator="\n").encode()
    cache.set(key, (content, summary.recipe, summary.passes_gates), CACHE_SECONDS)
    cache.set(key + ":summary", (summary.recipe, summary.passes_gates), CACHE_SECONDS)
    return SampleSubmission(content, filename, summary)
