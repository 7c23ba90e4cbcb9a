"""Nearest reference rows with exact ties, grouped by class, for the attacks.

Two distances ``d1 <= d2`` tie when ``d2 - d1 <= 1e-9 * max(1, d2)`` (metrics.md). For
every released row the guess set ``T`` is the set of candidate reference rows whose
distance ties the minimum; the row contributes ``1/|T|`` when its true row is in ``T``.
"""

from __future__ import annotations

import numpy as np
from sklearn.neighbors import KDTree

TIE_RTOL = 1e-9
_EXACT_FLOAT = 2.0**50


def tie_threshold(dmin: np.ndarray) -> np.ndarray:
    """Largest distance that ties ``dmin``: ``{d : d - dmin <= 1e-9 * max(1, d)}``.

    ``d - 1e-9 * max(1, d)`` increases with ``d``, so the set is ``[0, threshold]``.

    Examples
    --------
    >>> tie_threshold(np.array([0.0, 10.0])).tolist()
    [1e-09, 10.00000001]
    """
    dmin = np.asarray(dmin, dtype=np.float64)
    return np.where(dmin <= 1.0 - TIE_RTOL, dmin + TIE_RTOL, dmin / (1.0 - TIE_RTOL))


def _unique_rows(points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct rows and their multiplicities (duplicates would stall the KD-tree)."""
    points = np.ascontiguousarray(points + 0.0)  # -0.0 and 0.0 must be one value
    if points.shape[1] == 1:
        values, counts = np.unique(points[:, 0], return_counts=True)
        return values[:, None], counts
    row = np.dtype((np.void, points.dtype.itemsize * points.shape[1]))
    _, first, counts = np.unique(points.view(row).ravel(), return_index=True, return_counts=True)
    return points[first], counts


def _tied_counts(tree: KDTree, weights: np.ndarray, queries: np.ndarray):
    """Minimum distance and weighted number of tree points tying it, per query."""
    size = weights.size
    k = min(2, size)
    dist, idx = tree.query(queries, k=k)
    dmin = dist[:, 0]
    threshold = tie_threshold(dmin)
    count = np.where(dist <= threshold[:, None], weights[idx], 0).sum(axis=1)
    pending = np.flatnonzero(dist[:, -1] <= threshold) if k < size else np.empty(0, int)
    while pending.size:
        k = min(4 * k, size)
        dist, idx = tree.query(queries[pending], k=k)
        count[pending] = np.where(dist <= threshold[pending, None], weights[idx], 0).sum(axis=1)
        more = dist[:, -1] <= threshold[pending]
        pending = pending[more] if k < size else np.empty(0, int)
    return dmin, threshold, count


def _class_scale(ref_points: np.ndarray, rel_points: np.ndarray) -> float:
    """A power of two larger than any distance between the given points (x4)."""
    both_min = np.minimum(ref_points.min(axis=0), rel_points.min(axis=0))
    both_max = np.maximum(ref_points.max(axis=0), rel_points.max(axis=0))
    diameter = float(np.sqrt(np.sum((both_max - both_min) ** 2)))
    return float(2.0 ** np.ceil(np.log2(4.0 * diameter + 4.0)))


def nearest_hits(
    ref_points: np.ndarray,
    rel_points: np.ndarray,
    truth: np.ndarray,
    *,
    ref_class: np.ndarray | None = None,
    rel_class: np.ndarray | None = None,
) -> np.ndarray:
    """Expected hit of each released row when guessing a nearest candidate at random.

    Parameters
    ----------
    ref_points : ndarray (n, d)
        Reference rows (the candidates).
    rel_points : ndarray (m, d)
        Released rows.
    truth : ndarray of int (m,)
        0-based true reference row of each released row, -1 for none (or when the true
        row is not among the row's candidates).
    ref_class, rel_class : ndarray of int, optional
        When given, the candidates of a released row are the reference rows of the
        same class; every ``rel_class`` must occur in ``ref_class``.

    Returns
    -------
    ndarray of float (m,)
        ``1/|T|`` when the true row ties the minimum distance, else 0.

    Examples
    --------
    >>> ref = np.array([[100.0], [200.0]])
    >>> nearest_hits(ref, np.array([[150.0], [110.0]]), np.array([0, 1])).tolist()
    [0.5, 0.0]
    """
    m = rel_points.shape[0]
    out = np.zeros(m)
    if m == 0 or ref_points.shape[0] == 0:
        return out
    truth = np.asarray(truth, dtype=np.int64)
    if ref_class is None:
        groups = [(np.arange(ref_points.shape[0]), np.arange(m), None, None)]
    else:
        groups = _class_chunks(ref_points, rel_points, ref_class, rel_class)
    for ref_rows, rel_rows, ref_coord, rel_coord in groups:
        ref_pts = ref_points[ref_rows]
        rel_pts = rel_points[rel_rows]
        if ref_coord is not None:
            ref_pts = np.column_stack([ref_coord, ref_pts])
            rel_pts = np.column_stack([rel_coord, rel_pts])
        unique, weights = _unique_rows(ref_pts)
        tree = KDTree(unique)
        _, threshold, count = _tied_counts(tree, weights, rel_pts)
        has_truth = truth[rel_rows] >= 0
        rows = rel_rows[has_truth]
        true_points = ref_points[truth[rows]]
        d_true = np.sqrt(np.sum((true_points - rel_points[rows]) ** 2, axis=1))
        hit = d_true <= threshold[has_truth]
        out[rows[hit]] = 1.0 / count[has_truth][hit]
    return out


def _class_chunks(ref_points, rel_points, ref_class, rel_class):
    """Split classes into ranges whose class coordinate ``id * scale`` stays exact."""
    scale = _class_scale(ref_points, rel_points)
    per_chunk = max(int(_EXACT_FLOAT // scale), 1)
    wanted = np.unique(rel_class)
    ref_keep = np.isin(ref_class, wanted)
    dense_ref = np.searchsorted(wanted, ref_class)
    dense_rel = np.searchsorted(wanted, rel_class)
    for start in range(0, wanted.size, per_chunk):
        stop = start + per_chunk
        ref_rows = np.flatnonzero(ref_keep & (dense_ref >= start) & (dense_ref < stop))
        rel_rows = np.flatnonzero((dense_rel >= start) & (dense_rel < stop))
        yield (
            ref_rows,
            rel_rows,
            (dense_ref[ref_rows] - start) * scale,
            (dense_rel[rel_rows] - start) * scale,
        )
