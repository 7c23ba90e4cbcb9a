"""``Neighbor_att`` of the starter kit (B.1.5): each published row's nearest reference rows.

:func:`neighbor_att` returns, for each row of a published target, the ``n`` reference rows
nearest over some columns (ties: lower index), optionally only inside the row's
``match_qi`` class, falling back to all rows when the class is empty. A KD-tree over the
distinct reference points (the class id as an extra coordinate scaled beyond any
distance), never a dense n×n matrix. The one-guess-per-row step that follows is
:mod:`scoring.kit.matching`; the answer files built from both are
:mod:`scoring.kit.attacks`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.extras import optional
from scoring.kit._common import KitError
from scoring.nearest import tie_threshold
from scoring.prepare import TableCache, class_ids, deleted_mask

_SLACK = 1e-12
_WORKERS = -1


@dataclass(frozen=True)
class Candidates:
    """``Dc`` and ``Dc_yuclid`` of the lecture: ``index[i, r]`` is row ``i``'s ``r``-th candidate.

    ``index`` is -1 and ``distance`` ``inf`` where a row has fewer than ``n`` candidates.
    """

    index: np.ndarray
    distance: np.ndarray


class _Features:
    """Columns of both tables for the distance of B.1.5, and the exact distance of pairs."""

    def __init__(self, ref_cache, pub_cache, columns, *, scale, pub_rows):
        ref_num, pub_num, ref_cat, pub_cat = [], [], [], []
        for column in columns:
            ref_x, pub_x = ref_cache.numbers(column), pub_cache.numbers(column, pub_rows)
            if np.isfinite(ref_x).all() and np.isfinite(pub_x).all():
                span = float(ref_x.max() - ref_x.min()) if ref_x.size else 0.0
                factor = 1.0 if scale == "none" else (1.0 / span if span > 0 else 0.0)
                ref_num.append((ref_x, factor))
                pub_num.append(pub_x)
            else:
                ref_codes, ref_uniques = ref_cache.factorized(column)
                pub_codes, pub_uniques = pub_cache.factorized(column)
                ref_text = np.asarray(ref_uniques, dtype=object)[ref_codes].astype(str)
                pub_text = np.asarray(pub_uniques, dtype=object)[pub_codes[pub_rows]].astype(str)
                codes, _ = pd.factorize(np.concatenate([ref_text, pub_text]))
                ref_cat.append(codes[: ref_text.size])
                pub_cat.append(codes[ref_text.size :])
        n_ref = ref_cache.rows
        self.ref_num = np.column_stack([x for x, _ in ref_num]) if ref_num else np.zeros((n_ref, 0))
        self.pub_num = np.column_stack(pub_num) if pub_num else np.zeros((pub_rows.size, 0))
        self.factor = np.array([f for _, f in ref_num])
        self.ref_cat = np.column_stack(ref_cat) if ref_cat else np.zeros((n_ref, 0), dtype=np.int64)
        self.pub_cat = (
            np.column_stack(pub_cat) if pub_cat else np.zeros((pub_rows.size, 0), dtype=np.int64)
        )

    def points(self, which: str) -> np.ndarray:
        """Coordinates whose Euclidean distance is the distance of B.1.5 (one-hot · 1/√2)."""
        num = (self.ref_num if which == "ref" else self.pub_num) * self.factor
        cat = self.ref_cat if which == "ref" else self.pub_cat
        parts = [num]
        for k in range(cat.shape[1]):
            top = int(max(self.ref_cat[:, k].max(initial=0), self.pub_cat[:, k].max(initial=0))) + 1
            one_hot = np.zeros((cat.shape[0], top))
            one_hot[np.arange(cat.shape[0]), cat[:, k]] = np.sqrt(0.5)
            parts.append(one_hot)
        return np.column_stack(parts) if parts else np.zeros((num.shape[0], 0))

    def exact(self, pub: np.ndarray, ref: np.ndarray) -> np.ndarray:
        """Distance of pairs ``(pub[k], ref[k])``, from the raw values (ties are equal floats)."""
        gaps = (self.pub_num[pub] - self.ref_num[ref]) * self.factor
        squares = np.einsum("ij,ij->i", gaps, gaps)
        squares += np.sum(self.pub_cat[pub] != self.ref_cat[ref], axis=1)
        return np.sqrt(squares)


def _known(cache: TableCache, columns) -> list[str]:
    for column in columns:
        if column not in cache.columns:
            raise KitError(
                "kit.unknown_column",
                method="neighbor_att",
                column=column,
                columns=", ".join(map(str, cache.columns)),
            )
    return list(columns)


def _class_scale(*points: np.ndarray) -> float:
    stacked = [p for p in points if p.size]
    if not stacked:
        return 1.0
    low = np.min([p.min(axis=0) for p in stacked], axis=0)
    high = np.max([p.max(axis=0) for p in stacked], axis=0)
    diameter = float(np.sqrt(np.sum((high - low) ** 2)))
    return float(2.0 ** np.ceil(np.log2(4.0 * diameter + 4.0)))


class _DistinctPoints:
    """The distinct points of the reference rows ``rows`` in a KD-tree, each with its rows
    in ascending order (a table's many repeated rows are indexed once)."""

    def __init__(self, points: np.ndarray, rows: np.ndarray):
        points = np.ascontiguousarray(points + 0.0)
        view = points.view(np.dtype((np.void, points.dtype.itemsize * points.shape[1]))).ravel()
        _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
        inverse = inverse.ravel()
        self.unique = points[first]
        self.size = self.unique.shape[0]
        self.members = rows[np.lexsort((rows, inverse))]  # by distinct point, then row
        self.counts = np.bincount(inverse, minlength=self.size)
        self.starts = np.r_[0, np.cumsum(self.counts)[:-1]]
        # Sliding-midpoint splits and 64-point leaves: both faster than cKDTree's defaults on
        # these queries.
        spatial = optional("scipy.spatial", extra="kit")
        self.tree = spatial.cKDTree(self.unique, balanced_tree=False, leafsize=64)

    def rows_of(self, owners: np.ndarray, points: np.ndarray, limit: int | None = None):
        """(owner, row) pairs: the rows of each point (the first ``limit`` of each if given)."""
        take = self.counts[points] if limit is None else np.minimum(self.counts[points], limit)
        owner = np.repeat(owners, take)
        offset = np.arange(take.sum()) - np.repeat(np.cumsum(take) - take, take)
        return owner, self.members[np.repeat(self.starts[points], take) + offset]


def _top_n(features, ref_pts, pub_pts, queries, ref_rows, n, ref_key, pub_key):
    """Top-``n`` candidates among ``ref_rows`` for the published rows ``queries``.

    ``ref_key``/``pub_key`` are the class coordinates (or None). The ``n + 1`` nearest
    distinct points settle a row's candidates, unless its ``n``-th distance ties the
    farthest of them (an unreturned point could tie it too): such a row takes its
    candidates again among every point within that distance.
    """
    m = queries.size
    if m == 0 or ref_rows.size == 0:
        return np.full((m, n), -1, dtype=np.int64), np.full((m, n), np.inf)
    ref_p = ref_pts[ref_rows]
    pub_p = pub_pts[queries]
    if ref_key is not None:
        ref_p = np.column_stack([ref_key, ref_p])
        pub_p = np.column_stack([pub_key, pub_p])
    points = _DistinctPoints(ref_p, ref_rows)

    def pair_distance(q, rows):
        """Distance of (published ``queries[q]``, reference ``rows``); ∞ across classes."""
        d = features.exact(queries[q], rows)
        if ref_key is not None:
            same = ref_key[np.searchsorted(ref_rows, rows)] == pub_key[q]
            d = np.where(same, d, np.inf)
        return d

    k = min(n + 1, points.size)
    _, found = points.tree.query(pub_p, k=k, workers=_WORKERS)
    found = found.reshape(m, k)
    valid = found < points.size
    q, rows = points.rows_of(np.repeat(np.arange(m), k)[valid.ravel()], found[valid], n + 1)
    index, distance = _best(q, rows, pair_distance(q, rows), m, n)
    if k < n + 1:  # every distinct point was returned: nothing can tie unseen
        return index, distance
    last_point = found[:, -1]
    has_last = np.flatnonzero(last_point < points.size)
    last_d = np.full(m, np.inf)
    last_d[has_last] = pair_distance(has_last, points.members[points.starts[last_point[has_last]]])
    open_ = np.flatnonzero(
        np.isfinite(distance[:, -1]) & (last_d <= tie_threshold(distance[:, -1]))
    )
    if open_.size:
        radius = tie_threshold(distance[open_, -1]) * (1.0 + _SLACK) + _SLACK
        lists = points.tree.query_ball_point(pub_p[open_], radius, workers=_WORKERS)
        lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
        found_points = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists])
        q2, rows2 = points.rows_of(np.repeat(np.arange(open_.size), lengths), found_points)
        d2 = features.exact(queries[open_][q2], rows2)
        index[open_], distance[open_] = _best(q2, rows2, d2, open_.size, n)
    return index, distance


def _best(q, rows, d, m, n):
    """The ``n`` smallest (distance, row) of each query among the pairs ``(q, rows, d)``."""
    index = np.full((m, n), -1, dtype=np.int64)
    distance = np.full((m, n), np.inf)
    order = np.lexsort((rows, d, q))
    q, rows, d = q[order], rows[order], d[order]
    keep = np.isfinite(d)
    q, rows, d = q[keep], rows[keep], d[keep]
    rank = np.arange(q.size) - np.searchsorted(q, q)
    keep = rank < n
    index[q[keep], rank[keep]] = rows[keep]
    distance[q[keep], rank[keep]] = d[keep]
    return index, distance


def neighbor_att(
    published: pd.DataFrame,
    reference: pd.DataFrame,
    *,
    columns: Sequence[str],
    n: int = 3,
    scale: str = "range",
    match: Sequence[str] | None = None,
    fallback: bool = True,
    integer_columns: Sequence[str] = (),
) -> Candidates:
    """``Neighbor_att``: the ``n`` nearest reference rows of each published row (B.1.5).

    Parameters
    ----------
    published : pandas.DataFrame
        The published target (``ano_data``); deleted rows get no candidate.
    reference : pandas.DataFrame
        The table attacked (``ata_data``): the original, or a candidate table.
    columns : sequence of str
        Columns of the distance ``sqrt(Σ_num ((a−c)/R)² + Σ_cat [a ≠ c])``, ``R`` the
        reference's range of the column (``scale="none"``: raw differences). A column
        is numeric when every value of both tables is a number.
    n : int
        Candidates per row, ascending distance, ties to the lower index.
    match : sequence of str, optional
        Only reference rows with the same values of these columns (the ``match_qi``
        class) are candidates; a row whose class is empty takes all rows if
        ``fallback``, else none.
    integer_columns : sequence of str
        Match columns compared as integers (``39`` = ``39.0``), as the round decides.

    Returns
    -------
    Candidates
        0-based indices (``Dc``) and distances (``Dc_yuclid``).

    Examples
    --------
    >>> ref = pd.DataFrame({"x": ["0", "10", "4", "6"]}, dtype=object)
    >>> pub = pd.DataFrame({"x": ["5", "9"]}, dtype=object)
    >>> found = neighbor_att(pub, ref, columns=["x"], n=2, scale="none")
    >>> found.index.tolist(), found.distance.tolist()
    ([[2, 3], [1, 3]], [[1.0, 1.0], [1.0, 3.0]])
    """
    if scale not in ("range", "none"):
        raise KitError(
            "kit.bad_parameter", method="neighbor_att", name="scale", reason="'range' or 'none'"
        )
    if int(n) < 1:
        raise KitError("kit.bad_parameter", method="neighbor_att", name="n", reason="must be ≥ 1")
    n = int(n)
    ref_cache, pub_cache = TableCache(reference), TableCache(published)
    columns = _known(ref_cache, columns)
    _known(pub_cache, columns)
    pub_rows = np.flatnonzero(~deleted_mask(pub_cache))
    features = _Features(ref_cache, pub_cache, columns, scale=scale, pub_rows=pub_rows)
    ref_pts, pub_pts = features.points("ref"), features.points("pub")
    m = pub_cache.rows
    index = np.full((m, n), -1, dtype=np.int64)
    distance = np.full((m, n), np.inf)
    rest = np.arange(pub_rows.size)  # positions in pub_rows searched among every reference row
    if match:
        match = _known(ref_cache, match)
        integral = {c: c in integer_columns for c in match}
        ref_class, pub_class = class_ids(
            ref_cache, pub_cache, match, integral, released_rows=pub_rows
        )
        matched, idx, dist = _in_class(features, ref_pts, pub_pts, ref_class, pub_class, n)
        in_class = np.flatnonzero(matched)
        index[pub_rows[in_class]], distance[pub_rows[in_class]] = idx, dist
        rest = np.flatnonzero(~matched) if fallback else np.zeros(0, dtype=np.int64)
    everyone = np.arange(ref_cache.rows)
    idx, dist = _top_n(features, ref_pts, pub_pts, rest, everyone, n, None, None)
    index[pub_rows[rest]], distance[pub_rows[rest]] = idx, dist
    return Candidates(index=index, distance=distance)


def _in_class(features, ref_pts, pub_pts, ref_class, pub_class, n):
    """The published rows whose class holds reference rows (a mask over ``pub_class``), and
    their top-``n`` candidates inside it, the class id as a coordinate scaled beyond any
    distance."""
    sizes = np.bincount(
        ref_class[ref_class >= 0], minlength=int(max(pub_class.max(initial=0), 0)) + 1
    )
    matched = (pub_class >= 0) & (sizes[np.maximum(pub_class, 0)] > 0)
    in_class = np.flatnonzero(matched)
    top = max(int(ref_class.max(initial=0)), 1)
    far = np.zeros(0, dtype=np.int64)
    scale_k = _class_scale(ref_pts, pub_pts)
    if top * scale_k >= 2.0**50:
        # A published value far outside the reference (a huge SA value is a valid upload)
        # would push the class coordinates beyond float precision: those few rows are
        # searched class by class instead (exact, only slower), the others as usual.
        outlying = _outlying(ref_pts, pub_pts[in_class])
        far, in_class = in_class[outlying], in_class[~outlying]
        scale_k = _class_scale(ref_pts, pub_pts[in_class])
    if top * scale_k >= 2.0**50:
        raise KitError(
            "kit.bad_parameter",
            method="neighbor_att",
            name="match",
            reason="too many classes for exact class coordinates",
        )
    ref_in = np.arange(ref_class.size)[ref_class >= 0]
    idx, dist = _top_n(
        features,
        ref_pts,
        pub_pts,
        in_class,
        ref_in,
        n,
        ref_class[ref_in] * scale_k,
        pub_class[in_class] * scale_k,
    )
    if far.size:
        order = np.argsort(np.concatenate([in_class, far]), kind="stable")
        far_idx, far_dist = _by_class(features, ref_pts, pub_pts, ref_class, pub_class, far, n)
        idx = np.concatenate([idx, far_idx])[order]
        dist = np.concatenate([dist, far_dist])[order]
    return matched, idx, dist


def _outlying(ref_pts: np.ndarray, pub_pts: np.ndarray) -> np.ndarray:
    """Which published points lie farther outside the reference's bounding box than its
    diameter (+1) in some coordinate."""
    if ref_pts.shape[0] == 0 or pub_pts.shape[1] == 0:
        return np.zeros(pub_pts.shape[0], dtype=bool)
    low, high = ref_pts.min(axis=0), ref_pts.max(axis=0)
    margin = float(np.sqrt(np.sum((high - low) ** 2))) + 1.0
    with np.errstate(invalid="ignore"):
        inside = (pub_pts >= low - margin) & (pub_pts <= high + margin)
    return ~inside.all(axis=1)


def _by_class(features, ref_pts, pub_pts, ref_class, pub_class, queries, n):
    """Top-``n`` candidates of published rows ``queries``, one class at a time."""
    idx = np.full((queries.size, n), -1, dtype=np.int64)
    dist = np.full((queries.size, n), np.inf)
    for cls in np.unique(pub_class[queries]).tolist():
        mine = np.flatnonzero(pub_class[queries] == cls)
        rows = np.flatnonzero(ref_class == cls)
        idx[mine], dist[mine] = _top_n(
            features, ref_pts, pub_pts, queries[mine], rows, n, None, None
        )
    return idx, dist
