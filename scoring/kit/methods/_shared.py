"""What the kit's anonymization methods share: their kept rows, blanking rows (never all of
them), the rule that an arbitrary number needs a ``number``-domain column, and z-scores."""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.kit._common import KitError, deleted_rows, numbers


def kept_rows(table: pd.DataFrame) -> np.ndarray:
    """Positions of the rows not deleted (a deleted row is all empty)."""
    return np.flatnonzero(~deleted_rows(table))


def _is_number_column(config, column: str) -> bool:
    return config.domains.get(column) == "number"


def require_number_domain(config, column: str, *, method: str, option: str) -> None:
    """``kit.number_domain`` unless ``column`` may hold any number (``option`` is the way out)."""
    if not _is_number_column(config, column):
        raise KitError("kit.number_domain", method=method, column=column, option=option)


def blank_rows(out: pd.DataFrame, rows: np.ndarray, *, method: str) -> pd.DataFrame:
    """Delete ``rows`` of ``out`` (in place); ``kit.all_deleted`` if no row would be left."""
    if rows.size:
        out.iloc[rows, :] = ""
    if deleted_rows(out).all():
        raise KitError("kit.all_deleted", method=method)
    return out


def zscores(table, columns, rows, *, method) -> np.ndarray:
    """z-scores (population sd; a constant column gives 0) of ``columns`` on ``rows``."""
    values = np.column_stack([numbers(table, c, rows, method=method) for c in columns])
    sd = values.std(axis=0)
    return (values - values.mean(axis=0)) / np.where(sd > 0, sd, 1.0)
