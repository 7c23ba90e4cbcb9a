"""Nearest reference rows with exact ties, grouped by class, for the attacks.

Two distances ``d1 <= d2`` tie when ``d2 - d1 <= 1e-9 * max(1, d2)`` (metrics.md). For
every released row the guess set ``T`` is the set of candidate reference rows whose
distance ties the minimum; the row contributes ``1/|T|`` when its true row is in ``T``.

Only rows whose true row is a candidate can contribute, and for them the search is
bounded by the true row's distance: each is a radius query, radius the tie threshold of
that distance, which ends at the first point proving a miss (a point the true row does
not tie) and otherwise weighs the points tying the minimum (duplicates by multiplicity).
Strategy by shape:

* one column (E2, E4): :mod:`scoring.nearest_1d`, one sorted array and three binary
  searches per row, O(n log n);
* classes of at most 32 reference rows: all pairs, in padded numpy blocks (cheaper than
  building and walking a tree for so few points);
* larger classes, and the "all rows" fallback: one KD-tree per class over its distinct
  points, built and searched in compiled code (:mod:`scoring._nearest_numba`, numba):
  midpoint splits of tight bounding boxes, leaves of 16 points, nodes laid out depth
  first, each query with its own bound, the nearer child first; queries in the tree
  order of their true row (one region of the tree stays in the CPU caches), in chunks
  run on a thread pool.

Why the search is built this way: the radius balls are nearly empty (within a true row's
distance there is usually one point), so the time goes to the walk proving them empty,
much of it cache and branch misses. Hence:

* a bound per query and an early exit on a miss (a tree library that takes one bound per
  call, such as scipy's ``cKDTree``, needs buckets of queries run with their largest
  bound and an approximate pass to settle misses);
* branch-free box distances and a first test of each point, with reassociated sums
  (lower bounds only; the distances compared keep the order of the sum);
* children's boxes computed while partitioning, rows moved with the partition; a hash
  table, not ``np.unique`` on row bytes, for the distinct points; a depth-first node
  layout.

Tried and left out, for no gain: leaves of 8-32 points; median splits (a much shallower
tree, but slower queries); bounding spheres besides the boxes (they prune almost nothing
more); float32 boxes; stopping a point's sum halfway; walking packets of neighbouring
queries together; building subtrees on the thread pool (the top of a heavy-tailed tree,
splits peeling off a few outliers each, is most of the build). With ``cKDTree``: PCA
rotation, dimension reduction with exact pruning, triangle-inequality shortcuts from each
true row's nearest neighbour, dual-tree search; and brute force with BLAS (hopeless at a
million rows: 10^13 multiply-adds).

What the forest earns (measured on this search, 2 cores, same answers bit for bit): 10x
faster than scipy's ``cKDTree`` at 100,000 rows and 27x at 1,000,000 (6.3-7.5 s against
173 s), 35x faster than scikit-learn's ``kd_tree`` at 100,000 rows (its ``ball_tree`` did not
finish in 400 s). Its one cost is numba's compile, 5.9 s on a cold cache: the worker image
compiles it at build time into ``NUMBA_CACHE_DIR`` (``warm_up``, scripts/docker/Dockerfile),
so no upload pays it. Without numba (the toolkit without its ``fast`` extra) the large
classes fall back to the numpy blocks, same answers, slower.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np

TIE_RTOL = 1e-9
_CHUNK = 4096  # queries per task of the thread pool
_LEAFSIZE = 16
_WORKERS = -1  # threads: -1 all cores
_SMALL_CLASS = 32
_BLOCK_ELEMENTS = 2**22


def tie_threshold(dmin: np.ndarray) -> np.ndarray:
    """Largest distance that ties ``dmin``: ``{d : d - dmin <= 1e-9 * max(1, d)}``.

    ``d - 1e-9 * max(1, d)`` increases with ``d``, so the set is ``[0, threshold]``.

    Examples
    --------
    >>> tie_threshold(np.array([0.0, 10.0])).round(12).tolist()
    [1e-09, 10.00000001]
    """
    dmin = np.asarray(dmin, dtype=np.float64)
    return np.where(dmin <= 1.0 - TIE_RTOL, dmin + TIE_RTOL, dmin / (1.0 - TIE_RTOL))


def _threads() -> int:
    return (os.cpu_count() or 1) if _WORKERS == -1 else max(1, _WORKERS)


def warm_up() -> None:
    """Compile the tree search (or load it from numba's cache) on a tiny input.

    A process's first tree search otherwise pays for it: loading the compiled code from
    numba's cache, or compiling it when the cache is empty; a long-lived process calls this
    once when it starts.
    """
    points = np.arange(12.0).reshape(6, 2)
    nearest_hits(points, points + 0.5, np.arange(6))


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
    if ref_points.shape[1] == 1:
        # Imported here: scoring.nearest_1d takes tie_threshold from this module
        from scoring.nearest_1d import nearest_hits_1d

        return nearest_hits_1d(
            ref_points[:, 0], rel_points[:, 0], truth, ref_class=ref_class, rel_class=rel_class
        )
    with_truth = np.flatnonzero(truth >= 0)
    if ref_class is None:
        _forest_hits(out, ref_points, rel_points, truth, None, None, with_truth)
        return out
    sizes = np.bincount(ref_class[ref_class >= 0], minlength=int(rel_class.max()) + 1)
    small = sizes[rel_class[with_truth]] <= _SMALL_CLASS
    _small_class_hits(
        out, ref_points, rel_points, truth, ref_class, rel_class, with_truth[small], sizes
    )
    _forest_hits(out, ref_points, rel_points, truth, ref_class, rel_class, with_truth[~small])
    return out


def _forest_hits(out, ref_points, rel_points, truth, ref_class, rel_class, rows):
    """:func:`nearest_hits` for ``rows``: one KD-tree per class, searched in compiled code."""
    if rows.size == 0:
        return
    # Imported here: importing numba is slow, and only the tree search should pay for it
    try:
        from scoring import _nearest_numba as kernels
    except ImportError:  # numba not installed (the toolkit without its "fast" extra)
        _all_pairs_hits(out, ref_points, rel_points, truth, ref_class, rel_class, rows)
        return

    if ref_class is None:
        ref_rows = np.arange(ref_points.shape[0])
        ref_key = np.zeros(ref_rows.size, dtype=np.int64)
        rel_key = np.zeros(rows.size, dtype=np.int64)
    else:
        wanted = np.unique(rel_class[rows])
        ref_rows = np.flatnonzero(np.isin(ref_class, wanted))
        ref_key = ref_class[ref_rows].astype(np.int64)
        rel_key = rel_class[rows].astype(np.int64)
    # Distinct points per class (duplicates would stall the search: every point tying the
    # minimum is visited), grouped by class
    points = np.ascontiguousarray(ref_points[ref_rows])  # a copy (rows picked)
    points += 0.0  # -0.0 and 0.0: one value (in place: no second copy of the points)
    first, inverse, weights = kernels.distinct_rows(points, ref_key)
    by_class = np.argsort(ref_key[first], kind="stable")
    first, weights = first[by_class], weights[by_class].astype(np.float64)
    position = np.empty(by_class.size, dtype=np.int64)
    position[by_class] = np.arange(by_class.size)
    inverse = position[inverse]
    classes, starts = np.unique(ref_key[first], return_index=True)
    points = points[first]
    points, order, nodes, box, roots, depth = kernels.build_forest(
        points, np.append(starts, points.shape[0]).astype(np.int64), _LEAFSIZE
    )
    nodes, box = np.ascontiguousarray(nodes), np.ascontiguousarray(box)
    tree_rank = np.empty(order.size, dtype=np.int64)
    tree_rank[order] = np.arange(order.size)
    weights = weights[order]
    query_root = roots[np.searchsorted(classes, rel_key)]
    queries = np.ascontiguousarray(rel_points[rows])
    gaps = ref_points[truth[rows]]
    gaps -= queries  # in place: one array of the queries' size, not two
    d_true = np.sqrt(np.einsum("ij,ij->i", gaps, gaps))
    del gaps  # not held through the search
    locality = tree_rank[inverse[np.searchsorted(ref_rows, truth[rows])]]
    weight = np.zeros(rows.size)

    def search(selected: np.ndarray) -> None:
        kernels.tie_weights(
            points, weights, nodes, box, depth, query_root, queries, d_true, selected, weight
        )

    chunks = np.array_split(np.argsort(locality, kind="stable"), max(1, rows.size // _CHUNK))
    threads = min(len(chunks), _threads())
    if threads > 1:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(search, chunks))
    else:
        for chunk in chunks:
            search(chunk)
    hit = weight > 0
    out[rows[hit]] = 1.0 / weight[hit]


def _small_class_hits(out, ref_points, rel_points, truth, ref_class, rel_class, rows, sizes):
    """:func:`nearest_hits` for rows whose class is small: all pairs, padded blocks."""
    if rows.size == 0:
        return
    order = np.argsort(ref_class, kind="stable")
    start = np.searchsorted(ref_class[order], rel_class[rows])
    size = sizes[rel_class[rows]]
    gaps = ref_points[truth[rows]] - rel_points[rows]
    d_true = np.sqrt(np.einsum("ij,ij->i", gaps, gaps))
    width = 1
    while width <= _SMALL_CLASS:
        block = np.flatnonzero((size <= width) & (size > width // 2))
        step = max(1, _BLOCK_ELEMENTS // (width * ref_points.shape[1]))
        for first in range(0, block.size, step):
            part = block[first : first + step]
            offsets = np.arange(width)
            valid = offsets < size[part, None]
            members = order[start[part, None] + np.minimum(offsets, size[part, None] - 1)]
            diff = ref_points[members] - rel_points[rows[part]][:, None, :]
            dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
            dist[~valid] = np.inf
            threshold = tie_threshold(np.minimum(dist.min(axis=1), d_true[part]))
            count = np.sum(dist <= threshold[:, None], axis=1)
            hit = d_true[part] <= threshold
            out[rows[part][hit]] = 1.0 / np.maximum(count[hit], 1)
        width *= 2


def _all_pairs_hits(out, ref_points, rel_points, truth, ref_class, rel_class, rows):
    """:func:`nearest_hits` for ``rows`` without the compiled tree search: every candidate of
    a row's class (all rows when ``ref_class`` is None), in numpy blocks of queries, with the
    distances and the tie rule of the small classes' path. The same answers, slower: the
    work grows with rows × class size (the square of the rows when there are no classes)."""
    if rows.size == 0:
        return
    gaps = ref_points[truth[rows]] - rel_points[rows]
    d_true = np.sqrt(np.einsum("ij,ij->i", gaps, gaps))
    if ref_class is None:
        groups = [(np.arange(ref_points.shape[0]), np.arange(rows.size))]
    else:
        order = np.argsort(ref_class, kind="stable")
        keys = rel_class[rows]
        by_key = np.argsort(keys, kind="stable")
        classes, starts = np.unique(keys[by_key], return_index=True)
        bounds = np.append(starts, by_key.size)
        low = np.searchsorted(ref_class[order], classes, side="left")
        high = np.searchsorted(ref_class[order], classes, side="right")
        groups = [
            (order[low[k] : high[k]], by_key[bounds[k] : bounds[k + 1]])
            for k in range(classes.size)
        ]
    for members, which in groups:
        candidates = ref_points[members]
        step = max(1, _BLOCK_ELEMENTS // max(1, members.size * ref_points.shape[1]))
        for first in range(0, which.size, step):
            part = which[first : first + step]
            diff = candidates[None, :, :] - rel_points[rows[part]][:, None, :]
            dist = np.sqrt(np.einsum("ijk,ijk->ij", diff, diff))
            threshold = tie_threshold(np.minimum(dist.min(axis=1), d_true[part]))
            count = np.sum(dist <= threshold[:, None], axis=1)
            hit = d_true[part] <= threshold
            out[rows[part][hit]] = 1.0 / np.maximum(count[hit], 1)
