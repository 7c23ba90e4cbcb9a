"""Utility metrics U1–U6 (metrics.md "Utility"); lower is better.

Every function takes a :class:`scoring.prepare.ScoringData` (the original table and a
validated submission converted once) and returns a plain Python number.
"""

from __future__ import annotations

import numpy as np

from scoring.prepare import ScoringData


def u1_mean_mae(data: ScoringData) -> float:
    """U1 meanMAE: mean over ``sa`` of ``|mean(X[c]) - mean(A+[c])|``.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> round(u1_mean_mae(example_data("B")), 4)
    1.25
    """
    if data.a_sa.shape[0] == 0:
        return 0.0
    return float(np.mean(np.abs(data.x_sa.mean(axis=0) - data.a_sa.mean(axis=0))))


def _cell_sums(ids: np.ndarray, values: np.ndarray, cells: int) -> tuple[np.ndarray, np.ndarray]:
    counts = np.bincount(ids, minlength=cells).astype(np.float64)
    # One weighted count over (cell, column) pairs: every pair still adds its rows in
    # row order, so the sums are those of one count per column, bit for bit.
    columns = values.shape[1]
    pairs = (ids[:, None] * columns + np.arange(columns)).ravel()
    sums = np.bincount(pairs, weights=values.ravel(), minlength=cells * columns)
    return counts, sums.reshape(cells, columns)


def u2_cross_mean(data: ScoringData) -> float | None:
    """U2 crossMean: mean ``|cell mean in X - cell mean in A+|`` over shared cells and ``sa``.

    Returns ``None`` when X and A+ share no cell of the ``cross`` columns.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> round(u2_cross_mean(example_data("B")), 4)
    13.75
    """
    x_ids, a_ids = data.cross_ids
    cells = int(max(x_ids.max(initial=-1), a_ids.max(initial=-1))) + 1
    x_counts, x_sums = _cell_sums(x_ids, data.x_sa, cells)
    a_counts, a_sums = _cell_sums(a_ids, data.a_sa, cells)
    shared = (x_counts > 0) & (a_counts > 0)
    if not shared.any():
        return None
    x_means = x_sums[shared] / x_counts[shared, None]
    a_means = a_sums[shared] / a_counts[shared, None]
    return float(np.mean(np.abs(x_means - a_means)))


def u3_cross_count(data: ScoringData) -> float:
    """U3 crossCnt: mean ``|count in X - count in A+|`` over the union of non-empty cells.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> u3_cross_count(example_data("deleted"))
    0.5
    """
    x_ids, a_ids = data.cross_ids
    cells = int(max(x_ids.max(initial=-1), a_ids.max(initial=-1))) + 1
    x_counts = np.bincount(x_ids, minlength=cells)
    a_counts = np.bincount(a_ids, minlength=cells)
    union = (x_counts > 0) | (a_counts > 0)
    return float(np.mean(np.abs(x_counts[union] - a_counts[union])))


def correlation_matrix(values: np.ndarray) -> np.ndarray:
    """Pearson correlations of the columns; a constant column correlates 0 with everything."""
    if values.shape[0] == 0:
        return np.zeros((values.shape[1], values.shape[1]))
    constant = np.ptp(values, axis=0) == 0
    centered = values - values.mean(axis=0)
    norms = np.sqrt(np.einsum("ij,ij->j", centered, centered))
    norms[constant] = 1.0
    standardized = centered / norms
    standardized[:, constant] = 0.0
    return np.clip(standardized.T @ standardized, -1.0, 1.0)


def u4_cor_mae(data: ScoringData) -> float:
    """U4 corMAE: mean over ``sa`` column pairs of the absolute correlation difference.

    With fewer than two ``sa`` columns there is no pair and U4 is 0.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> round(u4_cor_mae(example_data("F")), 4)
    0.2929
    """
    columns = data.x_sa.shape[1]
    if columns < 2:
        return 0.0
    upper = np.triu_indices(columns, k=1)
    x_corr = correlation_matrix(data.x_sa)[upper]
    a_corr = correlation_matrix(data.a_sa)[upper]
    return float(np.mean(np.abs(x_corr - a_corr)))


def u5_information_loss(data: ScoringData) -> float:
    """U5 IL: mean over kept rows and ``sa`` of ``|X[i,c] - A[i,c]| / range(X[c])``.

    A column whose range in X is zero contributes 0.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> round(u5_information_loss(example_data("reordered")), 4)
    0.5417
    """
    if data.a_sa.size == 0:
        return 0.0
    spread = np.ptp(data.x_sa, axis=0)
    scale = np.where(spread > 0, spread, 1.0)
    loss = np.abs(data.x_sa[data.kept] - data.a_sa) / scale
    loss[:, spread == 0] = 0.0
    return float(loss.mean())


def u6_deleted_rows(data: ScoringData) -> int:
    """U6 nrow: the number of deleted rows ``n - |K|``.

    Examples
    --------
    >>> from scoring._examples import example_data
    >>> u6_deleted_rows(example_data("deleted"))
    1
    """
    return int(data.n - data.kept.size)
