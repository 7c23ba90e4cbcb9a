"""Methods inside the full-QI classes (B.3 DF SA mean, DG swap, DC Yamaoka row moves): each
row keeps its QI class, the other values move or merge within it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.kit._common import (
    check_columns,
    class_codes,
    format_numbers,
    numbers,
    output_frame,
    rng_of,
)
from scoring.kit.methods._shared import kept_rows, require_number_domain


def _qi_classes(table: pd.DataFrame, config, kept: np.ndarray) -> np.ndarray:
    return class_codes(table, config.qi, kept)


def sa_class_mean(table: pd.DataFrame, config, *, columns: Sequence[str] | None = None):
    """DF: inside each full-QI class every value of ``columns`` (default ``sa``) becomes the class mean.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = sa_class_mean(bank(), bank_config(qi=["sex"]), columns=["income"])
    >>> sorted(set(out["income"]))
    ['490', '502']
    """
    method = "sa_class_mean"
    columns = check_columns(table, config.sa if columns is None else columns, method=method)
    out = output_frame(table)
    kept = kept_rows(out)
    classes = _qi_classes(out, config, kept)
    for column in columns:
        require_number_domain(config, column, method=method, option="(none: choose an sa column)")
        values = numbers(out, column, kept, method=method)
        means = np.bincount(classes, weights=values) / np.bincount(classes)
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = format_numbers(means[classes])
        out[column] = cells
    return out


def swap_in_class(table: pd.DataFrame, config, *, columns: Sequence[str] | None = None, seed=None):
    """DG: inside each full-QI class, each column gets an independent uniform permutation.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> out = swap_in_class(bank(), bank_config(qi=["sex"]), seed=1)
    >>> sorted(out["income"]) == sorted(bank()["income"])
    True
    """
    columns = check_columns(
        table, config.sa if columns is None else columns, method="swap_in_class"
    )
    rng = rng_of(seed)
    out = output_frame(table)
    kept = kept_rows(out)
    classes = _qi_classes(out, config, kept)
    by_class = np.argsort(classes, kind="stable")
    for column in columns:
        shuffled = np.lexsort((rng.random(kept.size), classes))
        cells = out[column].to_numpy(dtype=object, copy=True)
        moved = cells[kept].copy()
        moved[by_class] = cells[kept][shuffled]
        cells[kept] = moved
        out[column] = cells
    return out


def yamaoka(table: pd.DataFrame, config):
    """DC (YA): inside each full-QI class ``i_1 < … < i_s``, row ``i_t`` takes the record of ``i_{t+1}``.

    Row ``i_s`` takes that of ``i_1``. Whole records move, so the table's multiset of
    records is unchanged and each row keeps its QI class.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> yamaoka(bank(), bank_config(qi=["sex"]))["income"].tolist()[:3]
    ['420', '500', '480']
    """
    out = output_frame(table)
    kept = kept_rows(out)
    classes = _qi_classes(out, config, kept)
    order = np.argsort(classes, kind="stable")  # rows ascending inside each class
    ordered = classes[order]
    first = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    size = np.diff(np.r_[first, ordered.size])
    start = np.repeat(first, size)
    offset = np.arange(ordered.size) - start
    source = order[start + (offset + 1) % np.repeat(size, size)]
    values = out.to_numpy(dtype=object, copy=True)
    values[kept[order]] = values[kept[source]]
    return pd.DataFrame(values, columns=out.columns, dtype=object)
