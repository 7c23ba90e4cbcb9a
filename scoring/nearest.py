"""Nearest reference rows with exact ties, grouped by class, for the attacks.

Two distances ``d1 <= d2`` tie when ``d2 - d1 <= 1e-9 * max(1, d2)`` (metrics.md). For
every released row the guess set ``T`` is the set of candidate reference rows whose
distance ties the minimum; the row contributes ``1/|T|`` when its true row is in ``T``.

Only rows whose true row is a candidate can contribute, and for them the search is
bounded by the true row's distance. Strategy by shape:

* one column (E2, E4): sorted ``(class, value)`` keys and binary search, O(n log n);
* classes of at most 32 reference rows: all pairs, in padded numpy blocks;
* larger classes, and the "all rows" fallback: one KD-tree (scipy ``cKDTree``) over
  distinct points, the class id as an extra coordinate scaled beyond any distance, then
  two passes over the rows, cut into chunks of nearby true rows (tree order, which keeps
  a region of the tree in the CPU caches) run on a thread pool, each chunk in buckets
  of similar bounds:

  1. from 50,000 rows, approximate 1-nearest (``eps = 3``) within the bound. It returns
     a real point with its real distance, so a point the true row does not tie proves a
     miss (most misses, at a fraction of the exact cost); below that size the pass
     costs more than it saves (8,333 rows: 35 -> 29 ms CPU without it);
  2. exact bounded 2-nearest for the other rows (hits and the few misses left), and a
     radius query only when distinct points tie.

Exact nearest neighbours in ~12 dimensions stay super-linear on noisy heavy-tailed
data: every point within the true row's distance must be ruled out, and that ball is
large with 10 % noise. Hits (80-88 % of the rows in the benchmark) cannot be settled
by the approximate pass. Measured on 2 noisy cores, benchmark worst cases (one huge
class; no class match, all rows), EUC metric before -> after the approximate pass:
200,000 rows 3.9-5.6 s -> 3.7-4.6 s; 1,000,000 rows 46-57 s -> 30-34 s, identical
results; growth about n^1.3 (was n^1.4). Tried without gain: leafsize 4-32; balanced
trees (2.5x slower); settling hits by the triangle inequality from each reference
point's nearest neighbour (that self-query costs more than it saves).

Issue 8, second pass (the 1M worst cases), measured on the benchmark's generated data
(12 ``sa`` columns, 5 % deleted, 10 % multiplicative noise; 86 % of the rows are hits),
CPU seconds of one thread because the machine ran at load 6-9 (wall 2-4x CPU):

* kept: chunks by tree locality, then 16 bound buckets per chunk, instead of 128 global
  bound buckets: exact pass over all 950,000 rows of 1M 66 -> 56-60 s CPU, 200,000 rows
  4.5 -> 3.8-4.0 s (identical results); the chunks also give the thread pool its work
  at every size (before, buckets under 2,048 rows ran on one thread);
* the exact pass dominates (200,000 rows: approximate pass 0.44 s, exact 2.2 s); its
  cost is spread evenly over the bound range (no tail of expensive rows to treat apart)
  and the balls are nearly empty (points within the true distance: median 1, 90th
  percentile 3; within twice that: median 4), so the time is the tree walk proving them
  empty, 13 us per row at 200,000 rows;
* pykdtree 1.4.3 (OpenMP kd-tree, float64): same time as cKDTree (2.29 vs 2.22 s);
* PCA rotation of the coordinates before building the tree (distances preserved): no
  change (2.90 vs 2.92 s);
* dimension reduction with exact pruning (a tree on the 6, 8 or 10 leading principal
  axes, whose distances bound the 12-D ones from below, k nearest there, then a 12-D
  check): the projected balls hold many more points (8 axes: mean 24 vs 9 in 12-D),
  so k = 2-8 saturates for 10-67 % of the rows and the low-D search is only 1.3-1.8x
  cheaper: no gain overall;
* counting the points in each row's own ball (``query_ball_point(return_length=True)``
  with one radius per row, no buckets): 1.8x slower than the bucketed 2-nearest;
* a dual-tree search per bound bucket (``sparse_distance_matrix``): 32 million pairs
  at 200,000 rows, 20x slower;
* the triangle inequality from each true row's nearest reference neighbour settles a
  hit when that neighbour is farther than twice the true distance: only 38 % of the
  hits with the exact neighbour (whose self-query costs as much as the search), 4 %
  with a cheap approximate one (``eps = 1``);
* brute force with BLAS (``|a|^2 + |b|^2 - 2ab`` in blocks, float64 or float32): at
  8,333 rows 0.22-0.43 s against 0.03 s for the tree (a 12-column product is memory
  bound), hopeless at 1M (10^13 multiply-adds);
* duplicate rows: the generated original has none (200,000 distinct of 200,000), the
  released rows are all distinct after noise; kept for published tables that repeat;
* bucket counts 4-512 at 8,333 and 200,000 rows: within the noise.

So the exact EUC1/EUC2 at 1,000,000 rows stays above the 20 s target on this 2-core
machine (the exact pass alone: 56-60 s of CPU under load; 30-34 s wall for the whole
search on a quieter machine before). Meeting it needs compiled code specific to this
search (one bound per row in the tree walk, which cKDTree does not offer, and a walk
that stops at the first point closer than the true row) or another definition of the
metric; both are beyond this module.
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from scipy.spatial import cKDTree

TIE_RTOL = 1e-9
_EXACT_FLOAT = 2.0**50
_CHUNK = 8192  # queries per locality chunk
_BUCKETS = 16  # bound buckets per chunk
_MIN_BUCKET = 64  # queries
_SLACK = 1e-12
_WORKERS = -1  # threads: -1 all cores
_SMALL_CLASS = 32
_BLOCK_ELEMENTS = 2**22
_EPS = 3.0  # approximate pass: returned distance <= (1 + _EPS) x the nearest
_APPROX_FROM = 50_000  # rows; fewer go straight to the exact search (the pass costs more)


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


def _unique_rows(points: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct rows, the distinct row of every row, and multiplicities.

    Duplicates would stall the KD-tree: a query must visit every point at the
    minimum distance, so a thousand identical rows cost a thousand visits.
    """
    points = np.ascontiguousarray(points + 0.0)  # -0.0 and 0.0 must be one value
    row = np.dtype((np.void, points.dtype.itemsize * points.shape[1]))
    _, first, inverse, counts = np.unique(
        points.view(row).ravel(), return_index=True, return_inverse=True, return_counts=True
    )
    return points[first], inverse.ravel(), counts


def _bounded_nearest(tree, queries, bounds, locality, k=2, eps=0.0):
    """``k`` nearest tree points of each query (``eps``: approximate), within its bound.

    ``cKDTree.query`` takes one scalar bound, so queries are searched in buckets of
    similar bounds; a tight bound prunes far more of the tree than an open search.
    Queries are first cut into chunks of consecutive ``locality`` (the tree position of
    their true row: one region of the tree, which stays in the CPU caches), each chunk
    into buckets by bound, and a bucket goes in ``locality`` order, so consecutive
    queries walk the same nodes. Chunks run on a thread pool (the queries release the
    GIL). Missing neighbours: ``inf``.
    """
    width, k = k, min(k, tree.n)
    dist = np.full((queries.shape[0], width), np.inf)
    idx = np.full((queries.shape[0], width), tree.n, dtype=np.int64)
    order = np.argsort(locality, kind="stable")
    chunks = np.array_split(order, max(1, order.size // _CHUNK))

    def search(chunk: np.ndarray) -> None:
        by_bound = chunk[np.argsort(bounds[chunk], kind="stable")]
        for bucket in np.array_split(by_bound, max(1, min(_BUCKETS, chunk.size // _MIN_BUCKET))):
            if bucket.size == 0:
                continue
            bucket = bucket[np.argsort(locality[bucket], kind="stable")]
            bound = float(bounds[bucket].max()) * (1.0 + _SLACK) + _SLACK
            d, i = tree.query(queries[bucket], k=k, eps=eps, distance_upper_bound=bound)
            dist[bucket, :k] = d.reshape(bucket.size, k)
            idx[bucket, :k] = i.reshape(bucket.size, k)

    threads = min(len(chunks), _threads())
    if threads > 1:
        with ThreadPoolExecutor(threads) as pool:
            list(pool.map(search, chunks))
    else:
        for chunk in chunks:
            search(chunk)
    return dist, idx


def _threads() -> int:
    return (os.cpu_count() or 1) if _WORKERS == -1 else max(1, _WORKERS)


def _tie_weights(tree, unique, weights, queries, nearest, second, threshold):
    """Weighted number of tree points tying the nearest of each query (>= 1 each)."""
    count = weights[nearest].astype(np.float64)
    several = np.flatnonzero(second <= threshold)
    if several.size:
        # Rare: several distinct points tie; collect them all and re-check exactly.
        radius = threshold[several] * (1.0 + _SLACK) + _SLACK
        lists = tree.query_ball_point(queries[several], radius, workers=_WORKERS)
        lengths = np.fromiter((len(found) for found in lists), dtype=np.int64, count=len(lists))
        members = np.concatenate([np.asarray(found, dtype=np.int64) for found in lists])
        owner = np.repeat(np.arange(several.size), lengths)
        gaps = unique[members] - queries[several][owner]
        dist = np.sqrt(np.einsum("ij,ij->i", gaps, gaps))
        tied = dist <= threshold[several][owner]
        count[several] = np.bincount(
            owner[tied], weights=weights[members[tied]], minlength=several.size
        )
    return count


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
    if ref_points.shape[1] == 1:
        return _nearest_hits_1d(ref_points[:, 0], rel_points[:, 0], truth, ref_class, rel_class)
    with_truth = np.flatnonzero(truth >= 0)
    if ref_class is None:
        groups = [(np.arange(ref_points.shape[0]), with_truth, None, None)]
    else:
        sizes = np.bincount(ref_class[ref_class >= 0], minlength=int(rel_class.max()) + 1)
        small = sizes[rel_class[with_truth]] <= _SMALL_CLASS
        _small_class_hits(
            out, ref_points, rel_points, truth, ref_class, rel_class, with_truth[small], sizes
        )
        large = with_truth[~small]
        if large.size == 0:
            return out
        groups = _class_chunks(ref_points, rel_points, ref_class, rel_class, large)
    for ref_rows, rel_rows, ref_coord, rel_coord in groups:
        ref_pts = ref_points[ref_rows]
        rel_pts = rel_points[rel_rows]
        if ref_coord is not None:
            ref_pts = np.column_stack([ref_coord, ref_pts])
            rel_pts = np.column_stack([rel_coord, rel_pts])
        keep = truth[rel_rows] >= 0
        rows = rel_rows[keep]
        if rows.size == 0:
            continue
        queries = rel_pts[keep]
        gaps = ref_points[truth[rows]] - rel_points[rows]
        d_true = np.sqrt(np.einsum("ij,ij->i", gaps, gaps))
        unique, inverse, weights = _unique_rows(ref_pts)
        tree = cKDTree(unique, balanced_tree=False)  # sliding midpoint: faster here
        tree_rank = np.empty(tree.n, dtype=np.int64)
        tree_rank[tree.indices] = np.arange(tree.n)
        locality = tree_rank[inverse[np.searchsorted(ref_rows, truth[rows])]]
        bounds = tie_threshold(d_true)
        if rows.size >= _APPROX_FROM:
            # Cheap approximate pass: any real point strictly closer than the true row's
            # tie zone proves a miss. Only the other rows need the exact search.
            found, _ = _bounded_nearest(tree, queries, bounds, locality, k=1, eps=_EPS)
            open_ = np.flatnonzero(d_true <= tie_threshold(found[:, 0]))
            rows, queries, d_true = rows[open_], queries[open_], d_true[open_]
            bounds, locality = bounds[open_], locality[open_]
        dist, nearest = _bounded_nearest(tree, queries, bounds, locality)
        threshold = tie_threshold(np.minimum(dist[:, 0], d_true))
        hit = d_true <= threshold
        count = _tie_weights(
            tree, unique, weights, queries[hit], nearest[hit, 0], dist[hit, 1], threshold[hit]
        )
        out[rows[hit]] = 1.0 / count
    return out


def _nearest_hits_1d(ref_values, rel_values, truth, ref_class, rel_class) -> np.ndarray:
    """:func:`nearest_hits` for one column: sorted (class, value) keys and binary search."""
    out = np.zeros(rel_values.size)
    rows = np.flatnonzero(truth >= 0)
    if rows.size == 0:
        return out
    if ref_class is None:
        ref_class = np.zeros(ref_values.size, dtype=np.int64)
        rel_class = np.zeros(rel_values.size, dtype=np.int64)
    values = rel_values[rows]
    group = rel_class[rows].astype(np.int64)
    d_true = np.abs(ref_values[truth[rows]] - values)
    distinct = np.unique(ref_values)
    width = np.int64(distinct.size + 1)
    keys = np.sort(ref_class.astype(np.int64) * width + np.searchsorted(distinct, ref_values))
    base = group * width
    position = np.searchsorted(keys, base + np.searchsorted(distinct, values))
    dmin = np.full(rows.size, np.inf)
    for neighbour in (position, position - 1):
        inside = (neighbour >= 0) & (neighbour < keys.size)
        key = keys[np.clip(neighbour, 0, keys.size - 1)]
        inside &= key // width == group
        found = np.abs(distinct[np.clip(key % width, 0, distinct.size - 1)] - values)
        dmin = np.where(inside, np.minimum(dmin, found), dmin)
    threshold = tie_threshold(np.minimum(dmin, d_true))
    hit = d_true <= threshold
    low = np.searchsorted(distinct, values - threshold, side="left")
    high = np.searchsorted(distinct, values + threshold, side="right")
    count = np.searchsorted(keys, base + high) - np.searchsorted(keys, base + low)
    out[rows[hit]] = 1.0 / np.maximum(count[hit], 1)
    return out


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


def _class_chunks(ref_points, rel_points, ref_class, rel_class, rows):
    """Split the classes of ``rows`` into ranges whose coordinate ``id * scale`` stays exact."""
    scale = _class_scale(ref_points, rel_points)
    per_chunk = max(int(_EXACT_FLOAT // scale), 1)
    wanted = np.unique(rel_class[rows])
    ref_keep = np.isin(ref_class, wanted)
    dense_ref = np.searchsorted(wanted, ref_class)
    dense_rel = np.full(rel_class.size, -1, dtype=np.int64)
    dense_rel[rows] = np.searchsorted(wanted, rel_class[rows])
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
