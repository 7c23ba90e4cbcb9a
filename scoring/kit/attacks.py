"""Attacks of the starter kit: candidates, 1:1 matching and answer files (B.1.5, B.1.6).

* :func:`neighbor_att` — the lecture's ``Neighbor_att``: for each row of a published
  target, the ``n`` reference rows nearest over some columns (ties: lower index),
  optionally only inside the row's ``match_qi`` class, falling back to all rows when
  the class is empty. A KD-tree over the distinct reference points (the class id as an
  extra coordinate scaled beyond any distance), never a dense n×n matrix.
* :func:`attack_id` — the lecture's ``Attack_id``: nearest candidate per row
  (``duplication=True``) or a greedy 1:1 assignment in the order (distance, row,
  rank), vectorised as rounds of locally dominant pairs (each round takes every pair
  that is the first remaining pair of both its row and its candidate — exactly the
  pairs the sequential greedy takes — then drops the pairs of taken rows).
* :func:`answer` — a correspondence table (guesses) for any attack of :data:`ATTACKS`:
  the lecture's pipeline and the built-in attacks E1–E4, EUC1, EUC2 as answer files.

Guesses are 0-based reference rows, ``-1`` for "no guess";
:func:`correspondence_lines` turns them into the platform's correspondence table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.spatial import cKDTree

from scoring.correspondence import score_correspondence
from scoring.kit._common import KitError, rng_of
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


def _top_n(features, ref_pts, pub_pts, queries, ref_rows, n, ref_key, pub_key):
    """Top-``n`` candidates among ``ref_rows`` for the published rows ``queries``.

    ``ref_key``/``pub_key`` are the class coordinates (or None). Distinct points are
    indexed once; their rows are expanded afterwards in ascending row order.
    """
    m = queries.size
    index = np.full((m, n), -1, dtype=np.int64)
    distance = np.full((m, n), np.inf)
    if m == 0 or ref_rows.size == 0:
        return index, distance
    ref_p = ref_pts[ref_rows]
    pub_p = pub_pts[queries]
    if ref_key is not None:
        ref_p = np.column_stack([ref_key, ref_p])
        pub_p = np.column_stack([pub_key, pub_p])
    ref_p = np.ascontiguousarray(ref_p + 0.0)
    view = ref_p.view(np.dtype((np.void, ref_p.dtype.itemsize * ref_p.shape[1]))).ravel()
    _, first, inverse = np.unique(view, return_index=True, return_inverse=True)
    inverse = inverse.ravel()
    unique = ref_p[first]
    member_order = np.lexsort((ref_rows, inverse))  # by distinct point, then row
    members = ref_rows[member_order]
    counts = np.bincount(inverse, minlength=unique.shape[0])
    starts = np.r_[0, np.cumsum(counts)[:-1]]
    # Sliding-midpoint splits and 64-point leaves: both faster than cKDTree's defaults on
    # these queries.
    tree = cKDTree(unique, balanced_tree=False, leafsize=64)
    k = min(n + 1, unique.shape[0])
    _, found = tree.query(pub_p, k=k, workers=_WORKERS)
    found = found.reshape(m, k)

    def expand(rows_of_query, points_found):
        """(query, row) pairs: the first ``n + 1`` rows of each found distinct point."""
        valid = points_found < unique.shape[0]
        q, p = rows_of_query[valid], points_found[valid]
        take = np.minimum(counts[p], n + 1)
        q = np.repeat(q, take)
        offset = np.arange(take.sum()) - np.repeat(np.cumsum(take) - take, take)
        return q, members[np.repeat(starts[p], take) + offset]

    q, rows = expand(np.repeat(np.arange(m), k), found.ravel())
    d = features.exact(queries[q], rows)
    if ref_key is not None:
        same = ref_key[np.searchsorted(ref_rows, rows)] == pub_key[q]
        d = np.where(same, d, np.inf)
    # The n-th distance is settled unless it ties the farthest distinct point returned
    # (an unreturned point could tie it too): those rows ask for every tied point.
    last_point = found[:, -1]
    last_d = np.full(m, np.inf)
    has_last = last_point < unique.shape[0]
    last_rows = members[starts[last_point[has_last]]]
    last_d[has_last] = features.exact(queries[has_last], last_rows)
    if ref_key is not None:
        same_last = ref_key[np.searchsorted(ref_rows, last_rows)] == pub_key[has_last]
        last_d[np.flatnonzero(has_last)[~same_last]] = np.inf
    index, distance = _best(q, rows, d, m, n)
    open_ = np.flatnonzero(
        np.isfinite(distance[:, -1]) & (k == n + 1) & (last_d <= tie_threshold(distance[:, -1]))
    )
    if open_.size:
        radius = tie_threshold(distance[open_, -1]) * (1.0 + _SLACK) + _SLACK
        lists = tree.query_ball_point(pub_p[open_], radius, workers=_WORKERS)
        lengths = np.fromiter((len(x) for x in lists), dtype=np.int64, count=len(lists))
        points_found = np.concatenate([np.asarray(x, dtype=np.int64) for x in lists])
        owner = np.repeat(np.arange(open_.size), lengths)
        take = counts[points_found]
        q2 = np.repeat(owner, take)
        offset = np.arange(take.sum()) - np.repeat(np.cumsum(take) - take, take)
        rows2 = members[np.repeat(starts[points_found], take) + offset]
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
    everyone = np.arange(ref_cache.rows)
    if match:
        match = _known(ref_cache, match)
        integral = {c: c in integer_columns for c in match}
        ref_class, pub_class = class_ids(
            ref_cache, pub_cache, match, integral, released_rows=pub_rows
        )
        sizes = np.bincount(
            ref_class[ref_class >= 0], minlength=int(max(pub_class.max(initial=0), 0)) + 1
        )
        matched = (pub_class >= 0) & (sizes[np.maximum(pub_class, 0)] > 0)
        scale_k = _class_scale(ref_pts, pub_pts)
        if max(int(ref_class.max(initial=0)), 1) * scale_k >= 2.0**50:
            raise KitError(
                "kit.bad_parameter",
                method="neighbor_att",
                name="match",
                reason="too many classes for exact class coordinates",
            )
        in_class = np.flatnonzero(matched)
        ref_in = everyone[ref_class >= 0]
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
        index[pub_rows[in_class]], distance[pub_rows[in_class]] = idx, dist
        rest = np.flatnonzero(~matched) if fallback else np.zeros(0, dtype=np.int64)
    else:
        rest = np.arange(pub_rows.size)
    idx, dist = _top_n(features, ref_pts, pub_pts, rest, everyone, n, None, None)
    index[pub_rows[rest]], distance[pub_rows[rest]] = idx, dist
    return Candidates(index=index, distance=distance)


def attack_id(
    candidates: Candidates, *, duplication: bool = False, method: str = "greedy"
) -> np.ndarray:
    """``Attack_id``: one guess per row from its candidates (B.1.6).

    ``duplication=True`` takes each row's nearest candidate. Otherwise no reference row
    is guessed twice: ``method="greedy"`` (the lecture's) assigns pairs in the order
    (distance, row, rank), a row whose candidates are all taken gets no guess (-1);
    ``method="lsap"`` is an optimal assignment over the candidate edges (scipy).

    Examples
    --------
    >>> found = Candidates(np.array([[0, 1], [0, 2]]), np.array([[0.2, 0.3], [0.1, 0.9]]))
    >>> attack_id(found, duplication=True).tolist(), attack_id(found).tolist()
    ([0, 0], [1, 0])
    """
    index, distance = candidates.index, candidates.distance
    m, n = index.shape
    if duplication:
        return index[:, 0].copy() if n else np.full(m, -1, dtype=np.int64)
    if method == "lsap":
        return _lsap(index, distance)
    if method != "greedy":
        raise KitError(
            "kit.bad_parameter", method="attack_id", name="method", reason="'greedy' or 'lsap'"
        )
    row = np.repeat(np.arange(m), n)
    rank = np.tile(np.arange(n), m)
    cand, dist = index.ravel(), distance.ravel()
    valid = cand >= 0
    order = np.lexsort((rank[valid], row[valid], dist[valid]))
    row, cand = row[valid][order], cand[valid][order]
    guess = np.full(m, -1, dtype=np.int64)
    taken = np.zeros(int(cand.max(initial=-1)) + 1, dtype=bool)
    alive = np.ones(row.size, dtype=bool)
    while alive.any():
        live = np.flatnonzero(alive)
        first_of_row = np.zeros(live.size, dtype=bool)
        first_of_row[np.unique(row[live], return_index=True)[1]] = True
        first_of_cand = np.zeros(live.size, dtype=bool)
        first_of_cand[np.unique(cand[live], return_index=True)[1]] = True
        chosen = live[first_of_row & first_of_cand]
        guess[row[chosen]] = cand[chosen]
        taken[cand[chosen]] = True
        alive[live] = (guess[row[live]] < 0) & ~taken[cand[live]]
    return guess


def _lsap(index: np.ndarray, distance: np.ndarray) -> np.ndarray:
    from scipy.optimize import linear_sum_assignment

    m = index.shape[0]
    guess = np.full(m, -1, dtype=np.int64)
    valid = index >= 0
    columns, local = np.unique(index[valid], return_inverse=True)
    if m * max(columns.size, 1) > 20_000_000:
        raise KitError(
            "kit.bad_parameter",
            method="attack_id",
            name="method",
            reason="'lsap' is limited to 20 million row × candidate cells; use 'greedy'",
        )
    fill = float(np.nanmax(distance[valid], initial=0.0)) * 10 + 10.0
    cost = np.full((m, columns.size), fill)
    rows = np.repeat(np.arange(m), index.shape[1])[valid.ravel()]
    cost[rows, local.ravel()] = distance[valid]
    r, c = linear_sum_assignment(cost)
    real = cost[r, c] < fill
    guess[r[real]] = columns[c[real]]
    return guess


def correspondence_lines(guesses: np.ndarray) -> str:
    """The platform's correspondence table: line ``k`` holds ``guess + 1`` (``0``: no guess).

    Examples
    --------
    >>> correspondence_lines(np.array([2, -1, 0]))
    '3\\n0\\n1\\n'
    """
    values = np.asarray(guesses, dtype=np.int64) + 1
    return "".join(f"{v}\n" for v in np.maximum(values, 0).tolist())


# --------------------------------------------------------------------------------------
# Answer generators: the lecture's pipeline and E1–E4 / EUC as answer files


def _match_classes(published, reference, config):
    integral = {c: c in config.integer_columns for c in config.match_qi}
    ref_class, pub_class = class_ids(
        TableCache(reference), TableCache(published), config.match_qi, integral
    )
    sizes = np.bincount(
        ref_class[ref_class >= 0], minlength=int(max(pub_class.max(initial=0), 0)) + 1
    )
    matched = (pub_class >= 0) & (sizes[np.maximum(pub_class, 0)] > 0)
    return ref_class, pub_class, matched


def _nearest(published, reference, config, columns, *, match, fallback, scale="none", n=1, **_):
    found = neighbor_att(
        published,
        reference,
        columns=columns,
        n=n,
        scale=scale,
        match=config.match_qi if match else None,
        fallback=fallback,
        integer_columns=config.integer_columns,
    )
    return found


def neighbor_answer(
    published,
    reference,
    config,
    *,
    columns: Sequence[str] | None = None,
    n: int = 3,
    scale: str = "range",
    match: bool = True,
    fallback: bool = True,
    duplication: bool = False,
    method: str = "greedy",
    **_,
):
    """``Neighbor_att`` then ``Attack_id``; the defaults are the lecture's pipeline.

    Top-``n`` over ``columns`` (default ``euc_sa``) inside the ``match_qi`` class (all
    rows when it is empty), then a greedy 1:1 assignment without duplicates.
    """
    found = _nearest(
        published,
        reference,
        config,
        list(config.euc_sa if columns is None else columns),
        match=match,
        fallback=fallback,
        scale=scale,
        n=n,
    )
    return attack_id(found, duplication=duplication, method=method)


def lecture_answer(published, reference, config, *, n: int = 3, **_):
    """The lecture's pipeline (:func:`neighbor_answer` with its defaults)."""
    return neighbor_answer(published, reference, config, n=n)


def e1_answer(published, reference, config, *, seed=None, **_):
    """E1: a uniform pick among the reference rows of the same ``match_qi`` class (seeded)."""
    ref_class, pub_class, matched = _match_classes(published, reference, config)
    order = np.argsort(ref_class, kind="stable")
    sorted_class = ref_class[order]
    start = np.searchsorted(sorted_class, pub_class)
    size = np.searchsorted(sorted_class, pub_class, side="right") - start
    draw = np.floor(rng_of(seed).random(len(published)) * np.maximum(size, 1)).astype(np.int64)
    guess = np.full(len(published), -1, dtype=np.int64)
    guess[matched] = order[(start + draw)[matched]]
    return guess


def e3_answer(published, reference, config, **_):
    """E3: the r-th published row by ``sa`` sum guesses the r-th reference row (stable ties)."""

    def sums(table):
        cache = TableCache(table)
        return np.sum([cache.numbers(c) for c in config.sa], axis=0)

    pub_order = np.argsort(sums(published), kind="stable")
    ref_order = np.argsort(sums(reference), kind="stable")
    guess = np.full(len(published), -1, dtype=np.int64)
    count = min(pub_order.size, ref_order.size)
    guess[pub_order[:count]] = ref_order[:count]
    return guess


def _one_nearest(columns_of, *, match, fallback):
    def generate(published, reference, config, **_):
        found = _nearest(
            published, reference, config, columns_of(config), match=match, fallback=fallback
        )
        return found.index[:, 0].copy()

    return generate


ATTACKS = {
    "lecture": lecture_answer,
    "neighbor": neighbor_answer,
    "E1": e1_answer,
    "E2": _one_nearest(lambda c: [c.e2_column], match=True, fallback=True),
    "E3": e3_answer,
    "E4": _one_nearest(lambda c: [c.e4_column], match=False, fallback=True),
    "EUC1": _one_nearest(lambda c: list(c.euc_sa), match=True, fallback=False),
    "EUC2": _one_nearest(lambda c: list(c.euc_sa), match=True, fallback=True),
}
"""Answer generators: ``(published, reference, config, **options) -> guesses``.

The E-attacks break ties by the lower reference row (E1: a seeded uniform pick), so an
answer scores one realisation of the expected rate the platform reports."""


def answer(
    published: pd.DataFrame, reference: pd.DataFrame, config, *, attack: str = "lecture", **options
) -> np.ndarray:
    """Guesses (0-based, -1 none) of ``attack`` on a published target.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> answer(bank(), bank(), bank_config(), attack="EUC2").tolist()
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    """
    if attack not in ATTACKS:
        raise KitError("kit.unknown_method", name=attack, names=", ".join(ATTACKS))
    return ATTACKS[attack](published, reference, config, **options)


def lecture_attack_rate(
    reference: pd.DataFrame, published: pd.DataFrame, truth: np.ndarray, config, *, n: int = 3
) -> float:
    """Rate of the lecture's pipeline on a published target, scored like a team's answer.

    Parameters
    ----------
    reference, published : pandas.DataFrame
        The table given to attackers and the published (shuffled) target.
    truth : array of int
        1-based true reference row of each published row (0: not in the reference).
    """
    guesses = lecture_answer(published, reference, config, n=n)
    return score_correspondence(np.maximum(guesses + 1, 0), np.asarray(truth, dtype=np.int64)).rate
