"""The one-column nearest search of E2 and E4.

Same rule and result as :func:`scoring.nearest.nearest_hits` (which calls it for one
column): a released row with a true reference row contributes ``1/|T|`` when the true row
ties the minimum distance, ``T`` being the candidate reference rows within the tie
threshold of that minimum. The candidates are one sorted array and every row needs three
binary searches (the nearest value at or above the row's value, and the two ends of the
tie window):

* over all rows (E4): the sorted values;
* within classes (E2): complex numbers ``class + value·i``, which numpy sorts and
  searches in lexicographic order, (class, value), both parts exact; a class's rows
  are then one run, ordered by value.

Searching the values themselves takes three binary searches per row, where composite
(class, rank) keys of ranked values would take seven.
"""

from __future__ import annotations

import numpy as np

from scoring.nearest import tie_threshold


def nearest_hits_1d(
    ref_values: np.ndarray,
    rel_values: np.ndarray,
    truth: np.ndarray,
    *,
    ref_class: np.ndarray | None = None,
    rel_class: np.ndarray | None = None,
) -> np.ndarray:
    """Expected hit of each released row guessing a nearest reference value at random.

    Parameters
    ----------
    ref_values : ndarray of float (n,)
        The reference rows' values (finite).
    rel_values : ndarray of float (m,)
        The released rows' values (finite).
    truth : ndarray of int (m,)
        0-based true reference row of each released row, -1 for none (or when the true
        row is not among the row's candidates).
    ref_class, rel_class : ndarray of int, optional
        When given, the candidates of a released row are the reference rows of its
        class.

    Returns
    -------
    ndarray of float (m,)
        ``1/|T|`` when the true row ties the minimum distance, else 0.

    Examples
    --------
    >>> ref = np.array([100.0, 200.0, 150.0])
    >>> nearest_hits_1d(ref, np.array([150.0, 110.0]), np.array([0, 1])).tolist()
    [0.0, 0.0]
    >>> nearest_hits_1d(ref, np.array([150.0, 110.0]), np.array([0, 1]),
    ...                 ref_class=np.array([0, 1, 2]), rel_class=np.array([0, 1])).tolist()
    [1.0, 1.0]
    """
    if ref_class is None:
        return nearest_hits_all(ref_values, rel_values, truth)
    ref_values = np.asarray(ref_values, dtype=np.float64)
    rel_values = np.asarray(rel_values, dtype=np.float64)
    truth = np.asarray(truth, dtype=np.int64)
    out = np.zeros(rel_values.size)
    rows = np.flatnonzero(truth >= 0)
    if rows.size == 0 or ref_values.size == 0:
        return out
    values = rel_values[rows]
    group = np.asarray(rel_class)[rows].astype(np.float64)
    d_true = np.abs(ref_values[truth[rows]] - values)
    keys = _pairs(np.asarray(ref_class).astype(np.float64), ref_values)
    keys.sort()
    last = keys.size - 1
    above = np.searchsorted(keys, _pairs(group, values))
    found = keys[np.minimum(above, last)]
    inside = (above <= last) & (found.real == group)
    dmin = np.where(inside, np.abs(found.imag - values), np.inf)
    found = keys[np.maximum(above - 1, 0)]
    inside = (above >= 1) & (found.real == group)
    dmin = np.where(inside, np.minimum(dmin, np.abs(found.imag - values)), dmin)
    threshold = tie_threshold(np.minimum(dmin, d_true))
    hit = np.flatnonzero(d_true <= threshold)
    values, threshold, group = values[hit], threshold[hit], group[hit]
    low = np.searchsorted(keys, _pairs(group, values - threshold), side="left")
    high = np.searchsorted(keys, _pairs(group, values + threshold), side="right")
    out[rows[hit]] = 1.0 / np.maximum(high - low, 1)
    return out


def _pairs(classes: np.ndarray, values: np.ndarray) -> np.ndarray:
    """``class + value·i`` as complex numbers, both parts copied exactly."""
    pairs = np.empty(values.size, dtype=np.complex128)
    pairs.real = classes
    pairs.imag = values
    return pairs


def nearest_hits_all(ref_values: np.ndarray, rel_values: np.ndarray, truth: np.ndarray):
    """Expected hit of each released row guessing a nearest reference value at random.

    Parameters
    ----------
    ref_values : ndarray of float (n,)
        The reference rows' values (the candidates: every row).
    rel_values : ndarray of float (m,)
        The released rows' values.
    truth : ndarray of int (m,)
        0-based true reference row of each released row, -1 for none.

    Returns
    -------
    ndarray of float (m,)
        ``1/|T|`` when the true row ties the minimum distance, else 0.

    Examples
    --------
    >>> ref = np.array([100.0, 200.0])
    >>> nearest_hits_all(ref, np.array([150.0, 110.0]), np.array([0, 1])).tolist()
    [0.5, 0.0]
    """
    ref_values = np.asarray(ref_values, dtype=np.float64)
    rel_values = np.asarray(rel_values, dtype=np.float64)
    truth = np.asarray(truth, dtype=np.int64)
    out = np.zeros(rel_values.size)
    rows = np.flatnonzero(truth >= 0)
    if rows.size == 0 or ref_values.size == 0:
        return out
    values = rel_values[rows]
    d_true = np.abs(ref_values[truth[rows]] - values)
    ordered = np.sort(ref_values)
    last = ordered.size - 1
    # The smallest reference value at or above each value, and the largest one below.
    above = np.searchsorted(ordered, values)
    dmin = np.where(above <= last, np.abs(ordered[np.minimum(above, last)] - values), np.inf)
    below = np.abs(ordered[np.maximum(above - 1, 0)] - values)
    dmin = np.where(above >= 1, np.minimum(dmin, below), dmin)
    threshold = tie_threshold(np.minimum(dmin, d_true))
    hit = np.flatnonzero(d_true <= threshold)
    values, threshold = values[hit], threshold[hit]
    low = np.searchsorted(ordered, values - threshold, side="left")
    high = np.searchsorted(ordered, values + threshold, side="right")
    out[rows[hit]] = 1.0 / np.maximum(high - low, 1)
    return out
