"""The original table ``P`` of a synthetic round, and everything a score reads from it.

A :class:`Population` holds ``P`` as a typed frame (numeric columns as float64,
categorical columns as text) and what the spec derives from it once: each categorical
column's domain, each numeric column's range and bin edges (spec §2: the deciles of ``P``
with ties merged). Every table a score reads — the holdout, a team's members, a release,
a challenge set, the auxiliary table — is a frame of the same shape, so one encoding
(:meth:`Population.codes`) and one embedding (:meth:`Population.embed`) serve them all.

Examples
--------
>>> from scoring.synthetic.config import parse_config
>>> config = parse_config({"columns": {"age": "numeric", "y": "categorical"}, "label": "y"})
>>> p = read_population(b"age,y\\n20,a\\n30,b\\n40,a\\n60,b\\n", config)
>>> p.domains["y"], p.ranges["age"], p.edges["age"].round(6).tolist()
(('a', 'b'), (20.0, 60.0), [23.0, 26.0, 29.0, 32.0, 35.0, 38.0, 42.0, 48.0, 54.0])
>>> p.embed(p.frame).tolist()[0]
[0.5, 0.5, 0.0]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from scoring.numbers import parse_numbers
from scoring.synthetic.config import SynthConfig, parse_config
from scoring.synthetic.errors import SynthError, row_listing
from scoring.synthetic.messages import ORIGINAL_TABLE
from scoring.tables import load_table

DECILES = np.linspace(0.1, 0.9, 9)
ONE_HOT_WEIGHT = 0.5  # a categorical mismatch costs 2 × ½ = 1 in the L1 embedding (spec §2)


def text_cells(cells: np.ndarray) -> np.ndarray:
    """A column's cells as an object array of ``str``. Not ``cells.astype(str)``: NumPy's
    text dtype is fixed-width, rows × longest cell × 4 bytes (a 400 KB cell over 6,000
    rows asked for 10 GB); pandas' cast keeps each cell its own size."""
    return pd.Series(cells, dtype=object).astype(str).to_numpy(dtype=object)


def checked_numbers(cells: np.ndarray, *, column: str, code: str, **params: Any) -> np.ndarray:
    """The numbers of a column's text cells; ``code`` refused, naming the rows and values
    (and ``params``), when a cell is no finite number (the platform's one number rule, full-width
    digits included)."""
    values = parse_numbers(cells)
    bad = np.flatnonzero(~np.isfinite(values))
    if len(bad):
        rows = row_listing(bad + 1, cells[bad[:10]].tolist())
        raise SynthError(code, column=column, rows=rows, **params)
    return values


@dataclass(frozen=True)
class Population:
    """``P`` typed, with its domains, ranges and bin edges (see the module's docstring)."""

    config: SynthConfig
    frame: pd.DataFrame
    domains: Mapping[str, tuple[str, ...]] = field(repr=False)
    ranges: Mapping[str, tuple[float, float]] = field(repr=False)
    edges: Mapping[str, np.ndarray] = field(repr=False)

    def __len__(self) -> int:
        return len(self.frame)

    def rows(self, positions: Any) -> pd.DataFrame:
        """The rows of ``P`` at 0-based ``positions``, numbered from 0 again."""
        return self.frame.iloc[np.asarray(positions, dtype=np.int64)].reset_index(drop=True)

    def codes(self, frame: pd.DataFrame) -> np.ndarray:
        """Each cell as a small integer: a categorical value's index in its domain, a numeric
        value's bin ``searchsorted(edges, value, side="right")``. Shape (rows, columns)."""
        out = np.empty((len(frame), len(self.config.columns)), dtype=np.int64)
        for k, column in enumerate(self.config.columns):
            values = frame[column].to_numpy()
            if self.config.roles[column] == "numeric":
                out[:, k] = np.searchsorted(self.edges[column], values, side="right")
            else:
                out[:, k] = pd.Categorical(values, categories=self.domains[column]).codes
        return out

    def cardinality(self, column: str) -> int:
        """How many codes :meth:`codes` can give in ``column``."""
        if self.config.roles[column] == "numeric":
            return len(self.edges[column]) + 1
        return len(self.domains[column])

    def describe(self) -> dict[str, Any]:
        """What a team's toolkit needs of ``P`` to score exactly as the server does, as JSON
        data: the configuration, each categorical domain, each numeric range and its bin
        edges (aggregates of ``P``, no row). :func:`population_from_description` reads it."""
        return {
            "config": self.config.as_dict(),
            "domains": {c: list(v) for c, v in self.domains.items()},
            "ranges": {c: list(v) for c, v in self.ranges.items()},
            "edges": {c: v.tolist() for c, v in self.edges.items()},
        }

    def embed(self, frame: pd.DataFrame) -> np.ndarray:
        """The DCR embedding (spec §2): each numeric value divided by its column's range in
        ``P`` (a constant column contributes nothing), then the one-hot encoding of each
        categorical value over ``P``'s categories times ½. L1 distance in it: a categorical
        mismatch costs 1, a numeric difference its share of the range."""
        parts = []
        for column in self.config.columns:
            if self.config.roles[column] == "numeric":
                low, high = self.ranges[column]
                if high > low:
                    values = frame[column].to_numpy(dtype=np.float64)
                    parts.append((values / (high - low))[:, None])
            else:
                codes = pd.Categorical(
                    frame[column].to_numpy(), categories=self.domains[column]
                ).codes
                one_hot = np.zeros((len(frame), len(self.domains[column])))
                one_hot[np.arange(len(frame)), codes] = ONE_HOT_WEIGHT
                parts.append(one_hot)
        return np.hstack(parts) if parts else np.zeros((len(frame), 0))


def population_from_description(data: Mapping[str, Any]) -> Population:
    """The :class:`Population` that :meth:`Population.describe` wrote, without ``P``'s rows.

    Floats travel as JSON's shortest round-trip text, so the edges and ranges read back
    are the very numbers the server bins with.
    """
    config = parse_config(data["config"])
    return Population(
        config=config,
        frame=pd.DataFrame({c: [] for c in config.columns}),
        domains={c: tuple(str(v) for v in data["domains"][c]) for c in config.categorical},
        ranges={
            c: (float(data["ranges"][c][0]), float(data["ranges"][c][1])) for c in config.numeric
        },
        edges={c: np.asarray(data["edges"][c], dtype=np.float64) for c in config.numeric},
    )


def read_population(
    source: Any,
    config: SynthConfig,
    *,
    name: str = "the original table",
    table: str = ORIGINAL_TABLE,
) -> Population:
    """Read ``P`` (a CSV path, bytes or file) and derive its domains, ranges and edges;
    ``table``: what the messages call it (``messages.SYN_TERMS``: the round's original, or a
    data pack's population).

    Raises
    ------
    SynthError
        The header is not the configuration's columns, a numeric column holds a cell that
        is no finite number, or the label has fewer than two values.
    """
    frame = load_table(source, name=name).to_frame()
    return population_from_frame(frame, config, table_name=table)


def population_from_frame(
    table: pd.DataFrame, config: SynthConfig, *, table_name: str = ORIGINAL_TABLE
) -> Population:
    """:func:`read_population` over a frame of text cells (as :func:`scoring.tables.read_table` gives)."""
    header = [str(c) for c in table.columns]
    if header != list(config.columns):
        raise SynthError(
            "syn.config.columns", configured=", ".join(config.columns), header=", ".join(header)
        )
    typed: dict[str, Any] = {}
    domains: dict[str, tuple[str, ...]] = {}
    ranges: dict[str, tuple[float, float]] = {}
    edges: dict[str, np.ndarray] = {}
    for column in config.columns:
        cells = table[column].to_numpy(dtype=object)
        if config.roles[column] == "numeric":
            values = checked_numbers(
                cells, column=column, code="syn.config.not_number", table=table_name
            )
            typed[column] = values
            ranges[column] = (
                (float(values.min()), float(values.max())) if len(values) else (0.0, 0.0)
            )
            edges[column] = np.unique(np.quantile(values, DECILES)) if len(values) else np.array([])
        else:
            typed[column] = text_cells(cells)
            domains[column] = tuple(sorted(set(typed[column].tolist())))
    labels = domains[config.label]
    if len(labels) < 2:
        raise SynthError(
            "syn.config.label_values", label=config.label, count=len(labels), table=table_name
        )
    frame = pd.DataFrame(typed, columns=list(config.columns))
    return Population(config=config, frame=frame, domains=domains, ranges=ranges, edges=edges)
