"""Micro-aggregation (B.2): :func:`mdav_groups` groups the rows by MDAV (Domingo-Ferrer &
Mateo-Sanz 2002), and :func:`mdav` replaces each value by its group's mean."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.kit._common import KitError, check_columns, format_numbers, numbers, output_frame
from scoring.kit.methods._shared import kept_rows, require_number_domain, zscores


def mdav_groups(points: np.ndarray, *, k: int) -> np.ndarray:
    """Group id of each row by MDAV (Domingo-Ferrer & Mateo-Sanz 2002), ties to the lower row.

    While ≥ 3k rows remain: r = farthest from the centroid, s = farthest from r; the k
    nearest r, then the k nearest s form groups. With 2k…3k−1 left, the k nearest the
    row farthest from the centroid form a group; the rest is the last group. One
    iteration is vectorised over the remaining rows, so the cost is O(n²/k).

    Examples
    --------
    >>> mdav_groups(np.array([[0.0], [1.0], [10.0], [11.0]]), k=2).tolist()
    [0, 0, 1, 1]
    """
    n = points.shape[0]
    group = np.full(n, -1, dtype=np.int64)
    left = np.arange(n)
    label = 0

    def farthest(center, rows):
        d = np.sum((points[rows] - center) ** 2, axis=1)
        return rows[int(np.argmax(d))]  # argmax: first (lowest) row among ties

    def nearest_k(center, rows):
        d = np.sum((points[rows] - center) ** 2, axis=1)
        return rows[np.lexsort((rows, d))[:k]]

    while left.size >= 3 * k:
        r = farthest(points[left].mean(axis=0), left)
        s = farthest(points[r], left)
        for anchor in (r, s):
            members = nearest_k(points[anchor], left)
            group[members] = label
            label += 1
            left = left[group[left] < 0]
    if left.size >= 2 * k:
        members = nearest_k(points[farthest(points[left].mean(axis=0), left)], left)
        group[members] = label
        label += 1
        left = left[group[left] < 0]
    if left.size:
        group[left] = label
    return group


def mdav(table: pd.DataFrame, config, *, k: int, columns: Sequence[str] | None = None):
    """Micro-aggregation by MDAV on z-scored ``columns`` (default ``sa``); values become group means.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = mdav(bank(), bank_config(), k=3, columns=["income", "deposit"])
    >>> out["income"].tolist()[2:4]
    ['356.6666666666667', '572.5']
    """
    method = "mdav"
    columns = check_columns(table, config.sa if columns is None else columns, method=method)
    if int(k) < 1:
        raise KitError("kit.bad_parameter", method=method, name="k", reason="must be ≥ 1")
    out = output_frame(table)
    kept = kept_rows(out)
    groups = mdav_groups(zscores(out, columns, kept, method=method), k=int(k))
    for column in columns:
        require_number_domain(config, column, method=method, option="(none: choose an sa column)")
        values = numbers(out, column, kept, method=method)
        means = np.bincount(groups, weights=values) / np.bincount(groups)
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = format_numbers(means[groups])
        out[column] = cells
    return out
