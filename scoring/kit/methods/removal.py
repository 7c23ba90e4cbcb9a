"""Removing rows (B.1.2 record removal, B.2 record suppression, B.3 DH deletion).

Each method blanks whole rows and keeps the others as they are; a table may never lose
every row.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.kit._common import KitError, at_least, check_columns, class_codes, output_frame, rng_of
from scoring.kit.methods._shared import blank_rows, kept_rows, zscores


def remove_record(table: pd.DataFrame, config, *, k: int, columns: Sequence[str] | None = None):
    """``Remove_record``: blank every row whose combination of ``columns`` occurs < ``k`` times.

    One pass suffices: removing whole classes changes no other class (B.1.2).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = remove_record(bank(), bank_config(), k=2, columns=["sex"])
    >>> int((out == "").all(axis=1).sum())
    0
    """
    at_least(k, 1, method="remove_record", name="k")
    columns = check_columns(
        table, config.qi if columns is None else columns, method="remove_record"
    )
    out = output_frame(table)
    kept = kept_rows(out)
    codes = class_codes(out, columns, kept)
    sizes = np.bincount(codes)
    return blank_rows(out, kept[sizes[codes] < int(k)], method="remove_record")


def delete_rows(table: pd.DataFrame, config, *, rows: Sequence[int]):
    """DH with given rows: blank the listed rows (1-based).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = delete_rows(bank(), bank_config(), rows=[2, 10])
    >>> (out == "").all(axis=1).tolist()[:3]
    [False, True, False]
    """
    rows = np.asarray(list(rows), dtype=np.int64)
    bad = rows[(rows < 1) | (rows > len(table))]
    if bad.size:
        raise KitError("kit.bad_row", method="delete_rows", row=int(bad[0]), rows=len(table))
    return blank_rows(output_frame(table), np.unique(rows - 1), method="delete_rows")


def delete_random(table: pd.DataFrame, config, *, d: int, seed=None):
    """DH at random: blank ``d`` kept rows drawn uniformly without replacement (seeded)."""
    at_least(d, 0, method="delete_random", name="d")
    out = output_frame(table)
    kept = kept_rows(out)
    chosen = rng_of(seed).choice(kept.size, size=min(int(d), kept.size), replace=False)
    return blank_rows(out, kept[np.sort(chosen)], method="delete_random")


def delete_outliers(table: pd.DataFrame, config, *, d: int, columns: Sequence[str] | None = None):
    """Record suppression (B.2): blank the ``d`` rows farthest from the mean in z-scores.

    The norm is Euclidean over the z-scores (population sd) of ``columns`` (default: all
    ``sa``); ties go to the higher row.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = delete_outliers(bank(), bank_config(), d=1, columns=["income", "deposit"])
    >>> np.flatnonzero((out == "").all(axis=1)).tolist()
    [9]
    """
    at_least(d, 0, method="delete_outliers", name="d")
    columns = check_columns(
        table, config.sa if columns is None else columns, method="delete_outliers"
    )
    out = output_frame(table)
    kept = kept_rows(out)
    z = zscores(out, columns, kept, method="delete_outliers")
    norm = np.sqrt(np.einsum("ij,ij->i", z, z))
    order = np.lexsort((-kept, -norm))  # largest norm first, ties: higher row first
    return blank_rows(out, kept[order[: int(d)]], method="delete_outliers")
