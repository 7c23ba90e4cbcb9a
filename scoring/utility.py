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
    return float(np.mean(np.abs(data.x_mean - data.a_mean)))


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
    x_counts = np.bincount(x_ids, minlength=cells).astype(np.float64)
    a_counts = np.bincount(a_ids, minlength=cells).astype(np.float64)
    shared = np.flatnonzero((x_counts > 0) & (a_counts > 0))
    if shared.size == 0:
        return None
    x_counts, a_counts = x_counts[shared], a_counts[shared]
    # One column at a time into one (cell x column) array: the same sums (rows in row
    # order), means and differences as whole matrices, without their large temporaries.
    differences = np.empty((shared.size, data.x_sa.shape[1]))
    for column in range(differences.shape[1]):
        x_sums = np.bincount(x_ids, weights=data.x_sa[:, column], minlength=cells)[shared]
        a_sums = np.bincount(a_ids, weights=data.a_sa[:, column], minlength=cells)[shared]
        differences[:, column] = np.abs(x_sums / x_counts - a_sums / a_counts)
    return float(np.mean(differences))


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


def correlation_matrix(
    values: np.ndarray, *, spread: np.ndarray | None = None, mean: np.ndarray | None = None
) -> np.ndarray:
    """Pearson correlations of the columns; a constant column correlates 0 with everything.

    ``spread`` and ``mean``, when known, are ``np.ptp(values, axis=0)`` and
    ``values.mean(axis=0)``.
    """
    if values.shape[0] == 0:
        return np.zeros((values.shape[1], values.shape[1]))
    if spread is None:  # all equal to the first row: ptp == 0, at a third of its cost
        constant = (values == values[0]).all(axis=0)
    else:
        constant = spread == 0
    standardized = values - (values.mean(axis=0) if mean is None else mean)
    norms = np.sqrt(np.einsum("ij,ij->j", standardized, standardized))
    norms[constant] = 1.0
    standardized /= norms
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
    x_corr = correlation_matrix(data.x_sa, spread=data.x_spread, mean=data.x_mean)[upper]
    a_corr = correlation_matrix(data.a_sa, mean=data.a_mean)[upper]
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
    spread = data.x_spread
    scale = np.where(spread > 0, spread, 1.0)
    loss = data.x_sa[data.kept]
    loss -= data.a_sa
    np.abs(loss, out=loss)
    loss /= scale
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
