"""The four attribute-disclosure indicators from per-row integer codes (spec A.1–A.3): the
vectorised core of :mod:`scoring.indicators`.

:func:`class_indicators` takes each row's class and labels and returns L1, L2, L3 and T
with their per-class values (:class:`IndicatorResult`); turning a table's cells into those
codes (bins, ranks, trimmed text) is :mod:`scoring.indicators`.

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

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.indicator_config import DEFAULT_L, EQUAL, ORDERED
from scoring.metrics_info import INDICATOR_METRICS


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


def _dense(values: np.ndarray) -> np.ndarray:
    """Dense codes 0..m−1 in sorted order of ``values`` (NaN, if any, last)."""
    return np.unique(values, return_inverse=True)[1].reshape(-1).astype(np.int64)


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
