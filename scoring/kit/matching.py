"""``Attack_id`` of the starter kit (B.1.6): one guess per published row from its candidates.

:func:`attack_id` takes each row's nearest candidate (``duplication=True``) or assigns
candidates one to one: greedily in the order (distance, row, rank), vectorised as rounds
of locally dominant pairs (each round takes every pair that is the first remaining pair
of both its row and its candidate — exactly the pairs the sequential greedy takes — then
drops the pairs of taken rows), or optimally (``method="lsap"``). The candidates come from
:func:`scoring.kit.neighbors.neighbor_att`.
"""

from __future__ import annotations

import numpy as np

from scoring.extras import optional
from scoring.kit._common import KitError
from scoring.kit.neighbors import Candidates


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
    linear_sum_assignment = optional("scipy.optimize", extra="kit").linear_sum_assignment

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
