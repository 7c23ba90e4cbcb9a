"""Attribute-disclosure indicators beside S1/S2 (spec indicators-and-kit.md, Part A).

L1 distinct l-diversity, L2 entropy l-diversity (a real number, never floored), L3
recursive (c,l)-diversity (``C_l = max_E r_1 / (r_l + … + r_m)``) and T t-closeness
(equal or ordered earth mover's distance), over one indicator column, on the
equivalence classes of S1/S2 (the kept rows grouped by every ``qi`` column). The
round's ``indicators`` block that says which column and how is read by
:mod:`scoring.indicator_config`.

Everything is computed on (class, label) pairs: one sort of the rows' pair keys, then
``bincount`` and cumulative sums per class; nothing loops over classes. The ordered
distance sums ``|F_E(i) − F(i)|`` over all m ranks without building a class × m matrix:
between two consecutive labels of a class ``F_E`` is constant, ``F`` is non-decreasing,
so each such run is split at one ``searchsorted`` point and summed with prefix sums of F.

Pitfalls of the outside reference (pycanon 1.3.6) avoided on purpose (spec A.7):
entropy is not floored, ``r_1`` is the *most* frequent count, a NaN key is a class of
its own, the distance follows the declared kind (not the dtype), and only positions
(never index labels) are used.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.columns import Table, as_table
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
from scoring.metrics_info import INDICATOR_METRICS

# "satisfies" rules of spec A.3 compare with this slack: L2 >= l - 1e-9, T <= t + 1e-9.
SLACK = 1e-9


@dataclass(frozen=True)
class IndicatorResult:
    """Table values and the per-class values they come from.

    ``L3`` is ``None`` when some class has fewer than ``l`` distinct labels (``C_l = ∞``).
    ``classes`` has one row per class (in class-id order): ``size``, ``m`` (distinct
    labels), ``exp_h`` (exp of the entropy), ``c`` (``r_1 / (r_l + …)``, ``inf`` when
    ``m < l``) and ``distance`` (``D[P_E, P]``).
    """

    L1: int
    L2: float
    L3: float | None
    T: float
    per_class: Mapping[str, np.ndarray]

    @property
    def classes(self) -> pd.DataFrame:
        """The per-class values as a table (built on demand: scoring needs only the minima)."""
        return pd.DataFrame(dict(self.per_class))

    def scores(self) -> dict[str, float | int | None]:
        return {metric: getattr(self, metric) for metric in INDICATOR_METRICS}


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


def _dense(values: np.ndarray) -> np.ndarray:
    """Dense codes 0..m−1 in sorted order of ``values`` (NaN, if any, last)."""
    return np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)


# --- the indicators ----------------------------------------------------------------------


def class_indicators(
    class_ids: np.ndarray,
    diversity_labels: np.ndarray,
    distance_labels: np.ndarray,
    *,
    l: int = DEFAULT_L,  # noqa: E741
    t_distance: str = EQUAL,
) -> IndicatorResult:
    """The four indicators from per-row integer codes (the vectorised core).

    Parameters
    ----------
    class_ids : ndarray of int
        Equivalence class of each kept row (any integers; rows with equal ids are a class).
    diversity_labels : ndarray of int
        Label of each row for L1–L3 (binned for a numeric column).
    distance_labels : ndarray of int
        Label of each row for T: any codes for the equal distance, ranks (a larger value
        is a larger code) for the ordered one.
    l : int
        The ``l`` of recursive (c,l)-diversity.
    t_distance : {"equal", "ordered"}

    Examples
    --------
    >>> r = class_indicators(np.array([0, 0, 1, 1]), np.array([0, 1, 0, 1]),
    ...                      np.array([0, 1, 0, 1]))
    >>> r.L1, r.L2, r.L3, r.T
    (2, 2.0, 1.0, 0.0)
    """
    classes = np.asarray(class_ids, dtype=np.int64)
    n = classes.size
    if n == 0:
        empty = {key: np.empty(0) for key in ("size", "m", "exp_h", "c", "distance")}
        return IndicatorResult(0, 0.0, None, 0.0, empty)
    sizes = np.bincount(classes) if classes.min() >= 0 else np.zeros(0, dtype=np.int64)
    if sizes.size == 0 or not sizes.all():  # ids are not 0..C-1 (dense ids skip the sort)
        classes = _dense(classes)
        sizes = np.bincount(classes)
    distance_labels = _dense_labels(distance_labels)
    diversity_labels = _small(diversity_labels)
    totals = np.bincount(distance_labels)
    # A class of one row needs no sort: m = exp(H) = 1, c = ∞ (l >= 2), and its distance
    # is that of a point mass (_point_distance). Only rows of larger classes are sorted.
    grouped = sizes > 1
    distinct = np.ones(sizes.size, dtype=np.int64)
    exp_h = np.ones(sizes.size)
    c_values = np.full(sizes.size, np.inf)
    distance = np.empty(sizes.size)
    alone = ~grouped[classes]
    distance[classes[alone]] = _point_distance(distance_labels[alone], totals, t_distance)
    if grouped.any():
        rows = ~alone
        sub_classes = (np.cumsum(grouped) - 1)[classes[rows]]
        sub_sizes = sizes[grouped]
        sub_labels = distance_labels[rows]
        distance_pairs = _pairs(sub_classes, sub_labels)
        diversity_pairs = _diversity_pairs(
            distance_pairs, sub_labels, diversity_labels[rows], sub_classes
        )
        (distinct[grouped], exp_h[grouped], c_values[grouped]) = _diversity(
            diversity_pairs, sub_sizes, l
        )
        distance[grouped] = _distance(distance_pairs, totals, sub_sizes, t_distance)
    table = {"size": sizes, "m": distinct, "exp_h": exp_h, "c": c_values, "distance": distance}
    worst_c = float(c_values.max())
    return IndicatorResult(
        L1=int(distinct.min()),
        L2=float(exp_h.min()),
        L3=worst_c if np.isfinite(worst_c) else None,
        T=float(distance.max()),
        per_class=table,
    )


def _small(labels: np.ndarray) -> np.ndarray:
    """Non-negative codes; already-small ones are kept (only their counts matter)."""
    labels = np.asarray(labels, dtype=np.int64)
    if labels.size and labels.min() >= 0 and labels.max() < 4 * labels.size + 16:
        return labels
    return _dense(labels)


def _dense_labels(labels: np.ndarray) -> np.ndarray:
    """Codes 0..m-1 in the order of ``labels`` with m the number of distinct labels."""
    labels = _small(labels)
    present = np.bincount(labels) > 0
    if present.all():
        return labels
    return (np.cumsum(present) - 1)[labels]


def _pairs(classes: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray, ...]:
    """(class, label, count) of every pair present, sorted by class then label: one sort."""
    width = int(labels.max()) + 1
    keys = np.sort(classes * width + labels)
    first = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    counts = np.diff(np.r_[first, keys.size])
    keys = keys[first]
    return keys // width, keys % width, counts


def _diversity_pairs(distance_pairs, distance_labels, diversity_labels, classes):
    """The (class, label, count) pairs of the diversity labels, from the distance pairs
    when each distance label has one diversity label (always so in a round: a bin is a
    range of ranks, a categorical label is its own rank), else with a sort of their own."""
    of = np.zeros(int(distance_labels.max()) + 1, dtype=np.int64)
    of[distance_labels] = diversity_labels
    if not np.array_equal(of[distance_labels], diversity_labels):
        return _pairs(classes, diversity_labels)
    pair_class, pair_label, counts = distance_pairs
    labels = of[pair_label]
    if np.all(np.diff(of) >= 0):  # monotone (bins): equal labels are adjacent in a class
        first = np.flatnonzero(
            np.r_[True, (pair_class[1:] != pair_class[:-1]) | (labels[1:] != labels[:-1])]
        )
        return pair_class[first], labels[first], np.add.reduceat(counts, first)
    present = np.bincount(distance_labels) > 0
    if np.unique(of[present]).size == np.count_nonzero(present):  # one-to-one
        return pair_class, labels, counts
    return _pairs(classes, diversity_labels)


def _diversity(pairs, sizes, level):
    pair_class, _, counts = pairs
    count = sizes.size
    distinct = np.bincount(pair_class, minlength=count)
    # H = ln|E| − Σ r ln r / |E|; exp(H) stays a real number.
    r_log_r = np.bincount(pair_class, weights=counts * np.log(counts), minlength=count)
    exp_h = np.clip(np.exp(np.log(sizes) - r_log_r / sizes), 1.0, distinct)  # rounding
    # r_1 is the most frequent count; r_l + … + r_m = |E| − (r_1 + … + r_{l−1}): take the
    # largest count of every class out l − 1 times (a loop over l, not over classes).
    starts = np.concatenate(([0], np.cumsum(distinct)[:-1]))
    remaining = counts.copy()
    index = np.arange(counts.size)
    top, first = np.zeros(count, dtype=np.int64), None
    for _ in range(level - 1):
        largest = np.maximum.reduceat(remaining, starts)
        at = np.minimum.reduceat(
            np.where(remaining == largest[pair_class], index, counts.size), starts
        )
        first = largest if first is None else first
        top += largest
        remaining[at] = 0
    tail = sizes - top
    with np.errstate(divide="ignore"):
        c_values = np.where(distinct >= level, first / np.where(tail > 0, tail, 1), np.inf)
    return distinct, exp_h, c_values


def _point_distance(labels: np.ndarray, totals: np.ndarray, t_distance: str) -> np.ndarray:
    """D[P_E, P] of one-row classes holding ``labels``: equal 1 − P(v); ordered
    (Σ_{i<r} F(i) + Σ_{i≥r} (1 − F(i))) / (m − 1) for the row's rank r."""
    n, m = int(totals.sum()), totals.size
    if t_distance == EQUAL:
        return 1.0 - totals[labels] / n
    if t_distance != ORDERED:
        raise ValueError(f"unknown t_distance {t_distance!r}")
    if m == 1:
        return np.zeros(labels.size)
    prefix = np.concatenate(([0.0], np.cumsum(np.cumsum(totals) / n)))
    below = prefix[labels]
    return np.clip((below + (m - labels) - (prefix[m] - below)) / (m - 1), 0.0, 1.0)


def _distance(pairs, totals, sizes, t_distance):
    n = int(totals.sum())
    m = totals.size
    pair_class, pair_label, counts = pairs
    count = sizes.size
    within = counts / sizes[pair_class]
    overall = totals[pair_label] / n
    if t_distance == EQUAL:
        # ½ Σ_all |P_E − P| = ½ (Σ_present (|P_E − P| − P) + 1): labels absent from E add P.
        gaps = np.bincount(pair_class, weights=np.abs(within - overall) - overall, minlength=count)
        return np.clip(0.5 * (gaps + 1.0), 0.0, 1.0)
    if t_distance != ORDERED:
        raise ValueError(f"unknown t_distance {t_distance!r}")
    if m == 1:
        return np.zeros(count)
    # F(i): cumulative distribution over ranks; prefix[i] = Σ_{j<i} F(j).
    cumulative = np.cumsum(totals) / n
    prefix = np.concatenate(([0.0], np.cumsum(cumulative)))
    # F_E is constant on [rank_k, next rank of the class) at the class's running share.
    running = np.cumsum(counts)
    class_start = np.concatenate(([0], np.cumsum(np.bincount(pair_class, minlength=count))))
    offset = np.concatenate(([0], running))[class_start[pair_class]]
    level = (running - offset) / sizes[pair_class]
    begin = pair_label
    last = np.r_[pair_class[1:] != pair_class[:-1], True]
    end = np.where(last, m, np.r_[pair_label[1:], m])
    runs = _run_sums(begin, end, level, cumulative, prefix)
    # Before a class's first label F_E = 0: Σ_{i < first} F(i).
    before = prefix[pair_label[class_start[:-1]]]
    return np.clip(
        (before + np.bincount(pair_class, weights=runs, minlength=count)) / (m - 1), 0, 1
    )


def _run_sums(begin, end, level, cumulative, prefix):
    """Σ_{begin ≤ i < end} |level − F(i)| for non-decreasing F, with prefix sums of F."""
    split = np.clip(np.searchsorted(cumulative, level, side="left"), begin, end)
    below = level * (split - begin) - (prefix[split] - prefix[begin])
    above = (prefix[end] - prefix[split]) - level * (end - split)
    return below + above


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
