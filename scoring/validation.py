"""Submission validation (metrics.md "Submission validation").

Each check raises one :class:`scoring.errors.ValidationError` whose message a
participant can act on. Rows are data rows numbered from 1 after the header line
(file line = row + 1); at most 10 offending rows are listed, with the total.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.errors import ValidationError
from scoring.prepare import canonical_keys, deleted_mask, is_integral_column, numeric_values
from scoring.schema import NUMBER, RoundConfig

MAX_LISTED = 10
ROWS_NOTE = "Rows are numbered from 1 after the header line."


def _listing(rows: np.ndarray, labels: Sequence[str] | None = None) -> str:
    """``row 3 ('x'), row 9 ('y') (25 rows in total)`` for the first 10 rows."""
    shown = rows[:MAX_LISTED].tolist()
    parts = [
        f"row {row + 1}" + (f" ({labels[k]})" if labels is not None else "")
        for k, row in enumerate(shown)
    ]
    text = ", ".join(parts)
    if rows.size > MAX_LISTED:
        text += f" ({rows.size} rows in total)"
    return text


def check_header(expected: Sequence[str], got: Sequence[str], *, what: str = "submission") -> None:
    """Raise when ``got`` differs from ``expected``, naming the columns concerned."""
    expected, got = list(expected), list(got)
    if expected == got:
        return
    missing = [c for c in expected if c not in got]
    extra = [c for c in got if c not in expected]
    problems = []
    if missing:
        problems.append("missing column(s): " + ", ".join(map(repr, missing)))
    if extra:
        problems.append("unexpected column(s): " + ", ".join(map(repr, extra)))
    if not problems:
        misplaced = [c for k, c in enumerate(got) if expected[k] != c]
        problems.append("misordered column(s): " + ", ".join(map(repr, misplaced)))
    raise ValidationError(
        f"The header of the {what} differs from the original: "
        + "; ".join(problems)
        + ". Expected header: "
        + ",".join(expected)
        + "."
    )


def _check_numbers(table: pd.DataFrame, column: str, rows: np.ndarray, *, what: str) -> None:
    values = table[column].to_numpy(dtype=object)[rows]
    bad = np.flatnonzero(~np.isfinite(numeric_values(values)))
    if bad.size:
        labels = [repr(v) for v in values[bad[:MAX_LISTED]]]
        raise ValidationError(
            f"Column {column!r} of the {what} must hold finite numbers; not a finite number at "
            f"{_listing(rows[bad], labels)}. {ROWS_NOTE}"
        )


def validate_original(original: pd.DataFrame, config: RoundConfig) -> None:
    """Check the original table itself: a header as configured, no empty cells, numeric sa.

    Raises
    ------
    ValidationError
    """
    check_header(config.columns, original.columns, what="original table")
    if len(original) == 0:
        raise ValidationError("The original table has no data rows.")
    empty = np.zeros(len(original), dtype=bool)
    for column in original.columns:
        empty |= original[column].to_numpy(dtype=object) == ""
    if empty.any():
        raise ValidationError(
            f"The original table has empty cells at {_listing(np.flatnonzero(empty))}. {ROWS_NOTE}"
        )
    every_row = np.arange(len(original))
    for column in config.sa:
        _check_numbers(original, column, every_row, what="original table")


def validate_submission(
    original: pd.DataFrame, anonymized: pd.DataFrame, config: RoundConfig
) -> None:
    """Check a submission against the original table (metrics.md "Submission validation").

    Parameters
    ----------
    original, anonymized : pandas.DataFrame
        Tables as returned by :func:`scoring.read_table`.
    config : RoundConfig

    Raises
    ------
    ValidationError
        Header, row count, every row deleted, an empty cell in a kept row, a value
        outside its column's domain.

    Examples
    --------
    >>> from scoring._examples import example_config, example_table, X_ROWS
    >>> x = example_table(X_ROWS)
    >>> validate_submission(x, x.iloc[:3], example_config(x))
    Traceback (most recent call last):
    ...
    scoring.errors.ValidationError: The submission has 3 data rows; expected 4 (one per row of the original table; a deleted row stays as a row of empty cells).
    """
    check_header(original.columns, anonymized.columns)
    if len(anonymized) != len(original):
        raise ValidationError(
            f"The submission has {len(anonymized)} data rows; expected {len(original)} "
            "(one per row of the original table; a deleted row stays as a row of empty cells)."
        )
    deleted = deleted_mask(anonymized)
    if deleted.all():
        raise ValidationError(
            "Every row of the submission is deleted (all cells empty); keep at least one row."
        )
    kept = np.flatnonzero(~deleted)
    _check_empty_cells(anonymized, kept)
    for column in original.columns:
        if config.domains.get(column) == NUMBER:
            _check_numbers(anonymized, column, kept, what="submission")
        else:
            _check_original_values(original, anonymized, column, kept)


def _check_empty_cells(anonymized: pd.DataFrame, kept: np.ndarray) -> None:
    empty_columns = {}
    for column in anonymized.columns:
        rows = kept[anonymized[column].to_numpy(dtype=object)[kept] == ""]
        if rows.size:
            empty_columns[column] = rows
    if not empty_columns:
        return
    rows = np.unique(np.concatenate(list(empty_columns.values())))
    labels = [
        ", ".join(repr(c) for c, r in empty_columns.items() if np.isin(row, r))
        for row in rows[:MAX_LISTED]
    ]
    raise ValidationError(
        "Empty cells in rows that are not deleted (a deleted row has every cell empty; "
        f"a kept row has none): {_listing(rows, labels)}. {ROWS_NOTE}"
    )


def _check_original_values(
    original: pd.DataFrame, anonymized: pd.DataFrame, column: str, kept: np.ndarray
) -> None:
    x_values = original[column].to_numpy(dtype=object)
    integral = is_integral_column(x_values)
    allowed = pd.Index(pd.unique(canonical_keys(x_values, integral=integral)))
    a_values = anonymized[column].to_numpy(dtype=object)[kept]
    a_keys = canonical_keys(a_values, integral=integral)
    outside = np.flatnonzero(allowed.get_indexer(a_keys) < 0)
    if outside.size:
        labels = [repr(v) for v in a_values[outside[:MAX_LISTED]]]
        raise ValidationError(
            f"Column {column!r} holds values that do not occur in that column of the original "
            f"table: {_listing(kept[outside], labels)}. {ROWS_NOTE}"
        )
