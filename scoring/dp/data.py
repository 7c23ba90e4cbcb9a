"""Cells, codes and true histograms of a categorical table (spec dp-round.md §2).

A target's cells are the cross product of its attributes' domains, **row-major** (the
first attribute varies slowest). Tables are DataFrames of text cells (as
:func:`scoring.tables.read_table` returns them); a cell meets a domain value (as the
organizer typed it) after trimming, the CP932 look-alikes folded (:func:`domain_positions`).

Examples
--------
>>> from scoring.dp._examples import toy_config, toy_table
>>> config, table = toy_config(), toy_table()
>>> target_cells(config, ("gender", "age"))[:2]
[('F', '<=17'), ('F', '18-24')]
>>> true_histogram(table, config, ("gender", "age")).tolist()
[0, 2, 2, 1, 2, 3]
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd

from scoring.dp.config import DPConfig
from scoring.dp.errors import DPError, row_listing
from scoring.dp.exact import exact_text
from scoring.encodings import fold_lookalikes
from scoring.messages import clip
from scoring.numbers import parse_numbers
from scoring.validation import header_problems


def target_cells(config: DPConfig, attributes) -> list[tuple[str, ...]]:
    """The cells of ``attributes`` (in the order given), row-major."""
    return list(itertools.product(*(config.attributes[a] for a in attributes)))


def domain_positions(values, domain) -> np.ndarray:
    """The 0-based index in ``domain`` of each of ``values`` (trimmed text), −1 outside.

    A value and a domain value are the same when they are after
    :func:`scoring.encodings.fold_lookalikes`: ``60～`` from a CP932 file is ``60〜`` typed
    in the configuration (WAVE DASH), and the other CP932 look-alikes likewise.

    Examples
    --------
    >>> domain_positions(["60\uff5e", "F", "x"], ("F", "60\u301c")).tolist()
    [1, 0, -1]
    """
    codes, uniques = pd.factorize(np.asarray(values, dtype=object), use_na_sentinel=False)
    folded = pd.Index([fold_lookalikes(str(v)) for v in domain])
    positions = folded.get_indexer([fold_lookalikes(str(v)) for v in uniques])
    return np.asarray(positions, dtype=np.int64)[codes]


def column_codes(values, domain, *, column: str, what: str = "original") -> np.ndarray:
    """The 0-based index of each value in ``domain`` (trimmed text); outside values raise.

    ``what`` picks the message: ``"original"`` (§12's hidden-table message) or
    ``"release"`` (release.csv).
    """
    text = pd.Series(values, dtype=object).astype(str).str.strip()
    codes = domain_positions(text.to_numpy(dtype=object), domain)
    bad = np.flatnonzero(codes < 0)
    if bad.size:
        code = (
            "dp.original.outside_domain" if what == "original" else "dp.releasecsv.outside_domain"
        )
        raise DPError(
            code, column=column, rows=row_listing((bad + 1).tolist(), text.iloc[bad].tolist())
        )
    return codes


def table_codes(
    table: pd.DataFrame, config: DPConfig, attributes, *, what: str = "original"
) -> np.ndarray:
    """An ``N × len(attributes)`` int array of domain indices (validates every value)."""
    out = np.empty((len(table), len(attributes)), dtype=np.int64)
    for k, attribute in enumerate(attributes):
        out[:, k] = column_codes(
            table[attribute].to_numpy(dtype=object),
            config.attributes[attribute],
            column=attribute,
            what=what,
        )
    return out


def histogram_of_codes(codes: np.ndarray, sizes) -> np.ndarray:
    """Counts of the row-major cells of ``codes`` (N × k) over domains of ``sizes``."""
    sizes = tuple(int(s) for s in sizes)
    if codes.shape[0] == 0:
        return np.zeros(math.prod(sizes), dtype=np.int64)
    flat = np.ravel_multi_index(tuple(codes.T), sizes)
    return np.bincount(flat, minlength=math.prod(sizes)).astype(np.int64)


def true_histogram(table: pd.DataFrame, config: DPConfig, attributes) -> np.ndarray:
    """``z_S``: the count of every cell of ``attributes`` in ``table`` (§2)."""
    attributes = tuple(attributes)
    codes = table_codes(table, config, attributes)
    return histogram_of_codes(codes, config.domain_sizes(attributes))


def true_histograms(table: pd.DataFrame, config: DPConfig) -> dict[str, np.ndarray]:
    """The true histogram of every workload target, by target id."""
    return {t.id: true_histogram(table, config, t.attributes) for t in config.workload}


def validate_original(table: pd.DataFrame, config: DPConfig) -> pd.DataFrame:
    """Check the hidden table (§12) and return its attribute columns, trimmed, in round order.

    Other columns are ignored; numeric columns of ``config.numeric`` must parse as
    finite numbers.
    """
    columns = [str(c).strip() for c in table.columns]
    table = table.set_axis(columns, axis=1)
    for attribute in (*config.attributes, *config.numeric):
        if attribute not in columns:
            raise DPError("dp.original.missing_column", column=attribute)
    if len(table) < 2:
        raise DPError("dp.original.too_few_rows", rows=len(table))
    for attribute in config.attributes:
        column_codes(
            table[attribute].to_numpy(dtype=object), config.attributes[attribute], column=attribute
        )
    for column in config.numeric:
        text = table[column].astype(str).str.strip()
        values = parse_numbers(text.to_numpy(dtype=object))
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            row = int(bad[0])
            raise DPError(
                "dp.original.not_number", column=column, row=row + 1, value=text.iloc[row][:80]
            )
    return table[list(config.attributes)].apply(lambda c: c.astype(str).str.strip())


def synthetic_table(counts, config: DPConfig, attributes, *, rng=None) -> pd.DataFrame:
    """A table of ``sum(counts)`` rows whose histogram on ``attributes`` is ``counts``.

    Rows come in cell order, or shuffled with ``rng`` (a :class:`numpy.random.Generator`).
    This is how the platform ships MovieLens's 14 aggregates without its rows (§0).
    """
    attributes = tuple(attributes)
    counts = np.asarray(counts, dtype=np.int64)
    sizes = config.domain_sizes(attributes)
    flat = np.repeat(np.arange(counts.size), counts)
    if rng is not None:
        flat = rng.permutation(flat)
    codes = np.unravel_index(flat, sizes)
    return pd.DataFrame(
        {
            a: np.asarray(config.attributes[a], dtype=object)[c]
            for a, c in zip(attributes, codes, strict=True)
        }
    )


def validate_release_table(
    table: pd.DataFrame, config: DPConfig, *, rows: int | None, name: str = "release.csv"
) -> np.ndarray:
    """Check an uploaded ``release.csv`` (§8.2) and return its codes (N × workload attributes).

    ``name`` is how messages call the file (the name it was uploaded under)."""
    header = list(config.workload_attributes)
    problems = header_problems(header, [str(c).strip() for c in table.columns])
    if problems:
        raise DPError(
            "dp.releasecsv.header", name=clip(name), header=",".join(header), problems=problems
        )
    if rows is not None and len(table) != rows:
        raise DPError("dp.releasecsv.rows", name=clip(name), got=len(table), expected=rows)
    table = table.set_axis(header, axis=1)
    return table_codes(table, config, header, what="release")


def epsilon_text(value) -> str:
    """Exact text of an ε amount (re-exported for callers building messages)."""
    return exact_text(value)
