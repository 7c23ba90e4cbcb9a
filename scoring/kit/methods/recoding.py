"""Recoding values (B.2 top/bottom coding, B.3 DD/DE QI unification): each value of a
column becomes another value the column already holds (or, on request, a mean)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.kit._common import (
    KitError,
    check_columns,
    format_numbers,
    mode_value,
    numbers,
    output_frame,
)
from scoring.kit.methods._shared import kept_rows, require_number_domain


def top_bottom_coding(
    table: pd.DataFrame,
    config,
    *,
    column: str,
    top: float | None = None,
    bottom: float | None = None,
    rep: str = "value",
):
    """Top/bottom coding: ``v > top -> top``, ``v < bottom -> bottom``.

    ``top`` and ``bottom`` must be values of the column (so the output keeps original
    values). ``rep="mean"`` replaces the coded values of each side by their mean instead
    (only for ``number``-domain columns).

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> top_bottom_coding(bank(), bank_config(), column="age", top=63)["age"].tolist()[-3:]
    ['58', '63', '63']
    """
    method = "top_bottom_coding"
    check_columns(table, [column], method=method)
    if rep not in ("value", "mean"):
        raise KitError("kit.bad_parameter", method=method, name="rep", reason="'value' or 'mean'")
    out = output_frame(table)
    kept = kept_rows(out)
    values = numbers(out, column, kept, method=method)
    cells = out[column].to_numpy(dtype=object, copy=True)
    for code, beyond in ((top, lambda v, t: v > t), (bottom, lambda v, t: v < t)):
        if code is None:
            continue
        match = np.flatnonzero(values == float(code))
        if match.size == 0:
            raise KitError("kit.code_value", column=column, value=code)
        rows = np.flatnonzero(beyond(values, float(code)))
        if rep == "mean":
            require_number_domain(config, column, method=method, option="rep=value")
            replacement = format_numbers(np.array([values[rows].mean()]))[0] if rows.size else ""
        else:
            replacement = cells[kept[match[0]]]
        cells[kept[rows]] = replacement
    out[column] = cells
    return out


def qi_unify(table: pd.DataFrame, config, *, columns: Sequence[str]):
    """DD/DE: set each column to its most frequent value (ties: the smallest).

    DD names QI columns outside ``cross``, DE columns of ``cross``.

    Examples
    --------
    >>> from scoring.kit._examples import bank, bank_config
    >>> qi_unify(bank(), bank_config(), columns=["pref"])["pref"].unique().tolist()
    ['東京']
    """
    columns = check_columns(table, columns, method="qi_unify")
    out = output_frame(table)
    kept = kept_rows(out)
    for column in columns:
        cells = out[column].to_numpy(dtype=object, copy=True)
        cells[kept] = mode_value(cells[kept])
        out[column] = cells
    return out
