"""Reading a release ``teamX_synthetic.csv`` (spec synthetic-round.md §2).

The columns of ``P`` in the same order and header; 1 to ``max_rows`` data rows; numeric
cells finite numbers within the column's range in ``P`` widened by 10 % on each side;
categorical cells values of the column's domain in ``P``. The file rules (UTF-8 with or
without BOM, anything else refused by name; field counts) are the platform's, from
:func:`scoring.tables.load_table`. Every refusal names the column, the 1-based data rows
and their values.

Examples
--------
>>> from scoring.synthetic.config import parse_config
>>> from scoring.synthetic.population import read_population
>>> config = parse_config({"columns": {"age": "numeric", "y": "categorical"}, "label": "y"})
>>> p = read_population(b"age,y\\n20,a\\n60,b\\n", config)
>>> read_release(b"age,y\\n21.5,b\\n", p).values.tolist()
[[21.5, 'b']]
>>> read_release(b"age,y\\n21,b\\n70,a\\n", p)
Traceback (most recent call last):
...
scoring.synthetic.errors.SynthError: Column 'age' must lie within 16 … 64 (the original's range widened by 10 %); out of range at row 2 ('70')
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from scoring.messages import clip, quoted
from scoring.synthetic.errors import SynthError, row_listing
from scoring.synthetic.population import Population, checked_numbers, text_cells
from scoring.tables import load_table
from scoring.validation import header_problems

WIDEN = 0.1
DOMAIN_SHOWN = 10


def widened_range(population: Population, column: str) -> tuple[float, float]:
    """The accepted range of a numeric column: ``P``'s range widened by 10 % each side."""
    low, high = population.ranges[column]
    margin = WIDEN * (high - low)
    return low - margin, high + margin


def _domain_text(domain: tuple[str, ...]) -> str:
    shown = quoted(domain[:DOMAIN_SHOWN])
    return shown + (", …" if len(domain) > DOMAIN_SHOWN else "")


def read_release(
    source: Any, population: Population, *, name: str = "synthetic.csv"
) -> pd.DataFrame:
    """Read and check a release; return it typed like ``population.frame``.

    Raises
    ------
    SynthError, scoring.errors.ValidationError
        The first rule the file breaks, with its column, rows and values.
    """
    table = load_table(source, name=name).to_frame()
    config = population.config
    return typed_rows(
        table, population, name=name, max_rows=config.max_rows, min_rows=config.min_rows
    )


def read_challenge(
    source: Any, population: Population, *, name: str = "challenge.csv"
) -> pd.DataFrame:
    """Read a challenge set as published (``id`` then ``P``'s columns), typed, in id order."""
    table = load_table(source, name=name).to_frame()
    if [str(c) for c in table.columns][:1] != ["id"]:
        raise SynthError(
            "syn.release.header",
            name=name,
            expected=",".join(["id", *population.config.columns]),
            got=clip(",".join(str(c) for c in table.columns), 200),
        )
    order = np.argsort(pd.to_numeric(table["id"], errors="coerce").to_numpy(), kind="stable")
    rows = table.drop(columns="id").iloc[order].reset_index(drop=True)
    return typed_rows(rows, population, name=name, max_rows=None)


def typed_rows(
    table: pd.DataFrame,
    population: Population,
    *,
    name: str,
    max_rows: int | None,
    min_rows: int = 1,
) -> pd.DataFrame:
    """Check a frame of text cells against ``P``'s columns, ranges and domains; type it
    (``min_rows`` to ``max_rows`` rows, no bound on them when ``max_rows`` is None)."""
    config = population.config
    header = [str(c) for c in table.columns]
    problems = header_problems(list(config.columns), header)
    if problems:
        raise SynthError(
            "syn.release.columns",
            name=name,
            expected=clip(",".join(config.columns), 400),
            problems=problems,
        )
    if max_rows is not None and not min_rows <= len(table) <= max_rows:
        raise SynthError(
            "syn.release.row_bounds", name=name, got=len(table), least=min_rows, most=max_rows
        )
    typed: dict[str, Any] = {}
    for column in config.columns:
        cells = table[column].to_numpy(dtype=object)
        if config.roles[column] == "numeric":
            values = checked_numbers(cells, column=column, code="syn.release.not_number")
            low, high = widened_range(population, column)
            out = np.flatnonzero((values < low) | (values > high))
            if len(out):
                raise SynthError(
                    "syn.release.range",
                    column=column,
                    low=f"{low:g}",
                    high=f"{high:g}",
                    rows=row_listing(out + 1, cells[out[:10]].tolist()),
                )
            typed[column] = values
        else:
            values = text_cells(cells)
            outside = np.flatnonzero(~pd.Series(values).isin(population.domains[column]).to_numpy())
            if len(outside):
                raise SynthError(
                    "syn.release.domain",
                    column=column,
                    domain=_domain_text(population.domains[column]),
                    rows=row_listing(outside + 1, values[outside[:10]].tolist()),
                )
            typed[column] = values
    return pd.DataFrame(typed, columns=list(config.columns))
