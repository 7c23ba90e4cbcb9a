"""Attribute-disclosure indicators beside S1/S2 (spec indicators-and-kit.md, Part A), from tables.

L1 distinct l-diversity, L2 entropy l-diversity (a real number, never floored), L3
recursive (c,l)-diversity (``C_l = max_E r_1 / (r_l + … + r_m)``) and T t-closeness
(equal or ordered earth mover's distance), over one indicator column, on the
equivalence classes of S1/S2 (the kept rows grouped by every ``qi`` column). The
round's ``indicators`` block that says which column and how is read by
:mod:`scoring.indicator_config`.

This module turns the column's cells into labels (equal-frequency bins and ranks of a
numeric column, trimmed text of a categorical one, ranked by ``order`` for T), keeps the
original's bin edges, and applies the "satisfies" rules; the indicators themselves are
computed from those integer codes by :func:`scoring.indicator_classes.class_indicators`.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.columns import Table, as_table
from scoring.indicator_classes import IndicatorResult, class_indicators
from scoring.indicator_config import (
    CATEGORICAL,
    DEFAULT_BINS,
    DEFAULT_L,
    EQUAL,
    NUMERIC,
    ORDERED,
    IndicatorConfig,
    load_indicators,
)

# "satisfies" rules of spec A.3 compare with this slack: L2 >= l - 1e-9, T <= t + 1e-9.
SLACK = 1e-9


# --- labels ------------------------------------------------------------------------------


def bin_edges(reference: np.ndarray, bins: int | Sequence[float]) -> np.ndarray:
    """Edges of the numeric bins (spec A.2): explicit, or nearest-rank equal-frequency.

    With an integer ``B`` the edges are ``x_(⌈i·N/B⌉)``, ``i = 1..B−1``, of the sorted
    reference values, computed in integers and deduplicated.

    Examples
    --------
    >>> float(bin_edges(np.arange(1.0, 101.0), 20)[10])  # i = 11: x_(55), not x_(56)
    55.0
    """
    if not isinstance(bins, int | np.integer):
        return np.asarray(bins, dtype=float)
    values = np.asarray(reference, dtype=float)
    values = values[np.isfinite(values)]
    n = values.size
    if n == 0:
        return np.empty(0)
    ranks = (np.arange(1, bins, dtype=np.int64) * n + bins - 1) // bins  # 1-based
    # x_(r) from the sorted distinct values and their counts
    uniques, counts = np.unique(values, return_counts=True)
    cumulative = np.cumsum(counts)
    return np.unique(uniques[np.searchsorted(cumulative, ranks, side="left")])


def bin_labels(values: np.ndarray, edges: np.ndarray) -> np.ndarray:
    """Bin of each value: the number of edges strictly below it."""
    return np.searchsorted(edges, np.asarray(values, dtype=float), side="left")


def _value_labels(values: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Bins and dense ranks of numbers, computed on their sorted distinct values (NaN
    last, one value)."""
    uniques, rank = np.unique(values, return_inverse=True)
    rank = rank.reshape(-1).astype(np.int64, copy=False)
    return bin_labels(uniques, edges)[rank], rank


# --- from tables -------------------------------------------------------------------------


def _text_labels(codes: np.ndarray, uniques: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Codes of the trimmed text of each row, and the trimmed distinct texts."""
    trimmed = np.asarray([str(u).strip() for u in uniques], dtype=object)
    merged, texts = pd.factorize(trimmed)
    return merged.astype(np.int64)[codes], np.asarray(texts, dtype=object)


def row_labels(
    codes: np.ndarray, uniques: np.ndarray, spec: IndicatorConfig
) -> tuple[np.ndarray, np.ndarray]:
    """Diversity and distance labels of a categorical column's rows (``codes`` into the
    distinct cell texts ``uniques``): the trimmed text, ranked by ``order`` for T if given."""
    text_codes, texts = _text_labels(codes, uniques)
    if spec.t_distance == ORDERED and spec.order is not None:
        # Listed values by their position; a value the list lacks ranks after them (text order).
        position = {value: k for k, value in enumerate(spec.order)}
        known = np.asarray([position.get(t, -1) for t in texts], dtype=np.int64)
        unknown = known < 0
        extra = np.argsort(np.argsort(texts[unknown].astype(str))) if unknown.any() else []
        known[unknown] = len(spec.order) + np.asarray(extra, dtype=np.int64)
        return text_codes, known[text_codes]
    return text_codes, text_codes


# Bin edges per original column (a prepared original serves many jobs of a worker).
_EDGES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _edges_of(column, bins) -> np.ndarray:
    key = bins if isinstance(bins, int) else tuple(bins)
    known = _EDGES.setdefault(column, {})
    if key not in known:
        known[key] = bin_edges(column.numbers(), bins)
    return known[key]


def prepare_original_column(original: Table, spec: IndicatorConfig) -> None:
    """What the indicators need of the original, computed once per prepared original:
    the equal-frequency bin edges of a numeric column (kept with the column)."""
    if spec.kind == NUMERIC:
        _edges_of(original.column(spec.sa), spec.bins)


def table_indicators(
    original: Table | pd.DataFrame,
    released: Table | pd.DataFrame,
    class_ids: np.ndarray,
    spec: IndicatorConfig,
    *,
    rows: np.ndarray | None = None,
    integer: bool = False,
) -> IndicatorResult:
    """Indicators of ``released`` (its ``rows``, by default all) in the classes ``class_ids``.

    ``original`` supplies the equal-frequency bin edges of a numeric column. With
    ``integer`` (a column of the round's ``integer_columns``) categorical labels are
    compared as integers, as S1/S2 compare QI values.
    """
    released = as_table(released)
    column = released.column(spec.sa)
    if spec.kind == CATEGORICAL and integer and spec.t_distance == EQUAL:
        codes, keys = column.keys(integral=True)
        codes = codes if rows is None else codes[rows]
        # an unparsable cell (code -1) is a label of its own per text
        text_codes, _ = column.factorized()
        text_codes = text_codes if rows is None else text_codes[rows]
        labels = np.where(codes >= 0, codes, keys.size + text_codes)
        return class_indicators(class_ids, labels, labels, l=spec.l, t_distance=spec.t_distance)
    if spec.kind == NUMERIC:
        # the rows' numbers (already parsed for an sa column): bins, and ranks for T
        edges = _edges_of(as_table(original).column(spec.sa), spec.bins)
        diversity, distance = _value_labels(column.numbers(rows), edges)
        return class_indicators(
            class_ids, diversity, distance, l=spec.l, t_distance=spec.t_distance
        )
    codes, uniques = column.factorized()
    codes = codes if rows is None else codes[rows]
    diversity, distance = row_labels(codes, uniques, spec)
    return class_indicators(class_ids, diversity, distance, l=spec.l, t_distance=spec.t_distance)


def indicators(
    table: pd.DataFrame,
    qi: Sequence[str],
    sa: str,
    *,
    kind: str | None = None,
    bins: int | Sequence[float] = DEFAULT_BINS,
    l: int = DEFAULT_L,  # noqa: E741
    t_distance: str | None = None,
    order: Sequence[str] | None = None,
    reference: pd.DataFrame | None = None,
) -> IndicatorResult:
    """L1, L2, L3 and T of a DataFrame, its classes grouped by ``qi`` (NaN keys kept).

    Parameters
    ----------
    table : pandas.DataFrame
        Rows to evaluate (any index; a fully empty row is not special here).
    qi : list of str
        Columns whose value combinations are the equivalence classes.
    sa : str
        The indicator column.
    kind, bins, l, t_distance, order
        As in the ``indicators`` block of a round configuration (spec A.4).
    reference : pandas.DataFrame, optional
        The table the bin edges come from (default: ``table``).

    Examples
    --------
    >>> t = pd.DataFrame({"q": [1, 1, 2, 2], "s": ["a", "b", "a", "a"]}, index=[7, 3, 9, 1])
    >>> r = indicators(t, ["q"], "s")
    >>> r.L1, r.L2, r.L3, r.T
    (1, 1.0, None, 0.25)
    """
    text = pd.DataFrame({sa: table[sa].to_numpy()}).astype(str)
    text[sa] = np.where(table[sa].isna().to_numpy(), "", text[sa].to_numpy())
    raw = {"sa": sa, "kind": kind, "bins": bins, "l": l, "t_distance": t_distance}
    raw["order"] = None if order is None else list(order)
    spec = load_indicators(raw, text if reference is None else _as_text(reference, sa))
    class_ids = table.groupby(list(qi), sort=False, dropna=False).ngroup().to_numpy()
    return table_indicators(
        text if reference is None else _as_text(reference, sa), text, class_ids, spec
    )


def _as_text(table: pd.DataFrame, sa: str) -> pd.DataFrame:
    column = table[sa]
    return pd.DataFrame({sa: np.where(column.isna(), "", column.astype(str)).astype(object)})


def satisfies(result: IndicatorResult, *, l: int | None = None, t: float | None = None) -> bool:  # noqa: E741
    """The "satisfies" rules of spec A.3: ``L1 ≥ l`` and ``L2 ≥ l − 1e-9``; ``T ≤ t + 1e-9``."""
    ok = True
    if l is not None:
        ok &= result.L1 >= l and result.L2 >= l - SLACK
    if t is not None:
        ok &= result.T <= t + SLACK
    return bool(ok)
