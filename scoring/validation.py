"""Submission validation (metrics.md "Submission validation").

Each check raises one :class:`scoring.errors.ValidationError` whose message a
participant can act on. Rows are data rows numbered from 1 after the header line
(file line = row + 1); at most 10 offending rows are listed, always with the total;
echoed values are clipped to 80 characters (:func:`scoring.messages.clip`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from scoring.columns import Table
from scoring.errors import ValidationError
from scoring.messages import MAX_LISTED, clip, listing, quoted
from scoring.numbers import MAX_MAGNITUDE
from scoring.prepare import TableCache, deleted_mask
from scoring.schema import NUMBER, RoundConfig


def _row_values(rows: np.ndarray, values: Sequence) -> dict:
    """A listing of 0-based ``rows`` with the (clipped) values of the first ten."""
    return listing("rows_values", rows + 1, [clip(v) for v in values[:MAX_LISTED]])


def check_header(expected: Sequence[str], got: Sequence[str], *, what: str = "submission") -> None:
    """Raise when ``got`` differs from ``expected``, naming the columns concerned."""
    problems = header_problems(expected, got)
    if problems:
        raise ValidationError(
            "header.mismatch",
            what=what,
            problems=problems,
            expected=clip(",".join(expected), 400),
        )


def header_problems(expected: Sequence[str], got: Sequence[str]) -> list[dict]:
    """How header ``got`` differs from ``expected`` (none when equal): the missing, the
    unexpected or else the misordered columns, as message parts (``header.*`` codes) that a
    message's ``problems`` parameter renders.

    Examples
    --------
    >>> [p["code"] for p in header_problems(["a", "b"], ["a", "c"])]
    ['header.missing', 'header.unexpected']
    >>> header_problems(["a", "b"], ["b", "a"])[0]["params"]
    {'columns': "'b', 'a'"}
    """
    expected, got = list(expected), list(got)
    if expected == got:
        return []
    separator = _other_separator(expected, got)
    if separator:
        return [{"code": "header.separator", "params": {"separator": separator}}]
    missing = [c for c in expected if c not in got]
    extra = [c for c in got if c not in expected]
    problems = []
    if missing:
        problems.append({"code": "header.missing", "params": {"columns": quoted(missing)}})
    if extra:
        problems.append({"code": "header.unexpected", "params": {"columns": quoted(extra)}})
    if not problems:
        misplaced = [c for k, c in enumerate(got) if expected[k] != c]
        problems.append({"code": "header.misordered", "params": {"columns": quoted(misplaced)}})
    return problems


def _other_separator(expected: list[str], got: list[str]) -> str | None:
    """``tab`` or ``semicolon`` when ``got`` is one column that this separator splits into
    some of ``expected``'s names (a spreadsheet's "Text (tab delimited)" or a European
    locale's CSV); else None.

    >>> _other_separator(["a", "b"], ["a;b"]), _other_separator(["a", "b"], ["a"])
    ('semicolon', None)
    """
    if len(expected) < 2 or len(got) != 1:
        return None
    for char, name in (("\t", "tab"), (";", "semicolon")):
        if len(set(got[0].split(char)) & set(expected)) >= 2:
            return name
    return None


def _check_numbers(cache: TableCache, column: str, rows: np.ndarray, *, what: str) -> None:
    numbers = cache.numbers(column, rows)
    _refuse_rows(cache, column, rows, ~np.isfinite(numbers), "column.not_number", what=what)
    _check_magnitude(cache, column, rows, numbers, what=what)


def _check_magnitude(cache, column: str, rows: np.ndarray, numbers, *, what: str) -> None:
    """Refuse finite ``numbers`` (of ``rows``) beyond :data:`MAX_MAGNITUDE`."""
    large = np.abs(numbers) > MAX_MAGNITUDE
    _refuse_rows(cache, column, rows, large, "column.too_large", what=what, limit="1e15")


def _refuse_rows(cache, column: str, rows: np.ndarray, at_fault, code: str, **params) -> None:
    """Refuse ``column`` with ``code`` when any of ``rows`` is ``at_fault`` (a mask), naming
    the first :data:`MAX_LISTED` of them with their values and how many in all."""
    bad = np.flatnonzero(at_fault)
    if bad.size:
        values = cache.values(column, rows[bad[:MAX_LISTED]])
        raise ValidationError(
            code, column=repr(clip(column)), rows=_row_values(rows[bad], values), **params
        )


def validate_original(
    original: Table | pd.DataFrame, config: RoundConfig, *, cache: TableCache | None = None
) -> None:
    """Check the original table itself: a header as configured, no empty cells, numeric sa.

    Raises
    ------
    ValidationError
    """
    check_header(config.columns, original.columns, what="original table")
    if len(original) == 0:
        raise ValidationError("original.no_rows")
    cache = cache or TableCache(original)
    empty = np.zeros(len(original), dtype=bool)
    for column in original.columns:
        empty |= cache.empty(column)
    if empty.any():
        raise ValidationError(
            "original.empty_cells", rows=listing("rows", np.flatnonzero(empty) + 1)
        )
    every_row = np.arange(len(original))
    for column in config.sa:
        _check_numbers(cache, column, every_row, what="original table")


def validate_submission(
    original: Table | pd.DataFrame,
    anonymized: Table | pd.DataFrame,
    config: RoundConfig,
    *,
    caches: tuple[TableCache, TableCache] | None = None,
    value_ranges: Mapping[str, tuple[float, float]] | None = None,
) -> None:
    """Check a submission against the original table (metrics.md "Submission validation").

    Parameters
    ----------
    original, anonymized : scoring.columns.Table or pandas.DataFrame
        Tables as returned by :func:`scoring.load_table` or :func:`scoring.read_table`.
    config : RoundConfig
    value_ranges : mapping of column to (low, high), optional
        The range rule of a round (iPWS 2023: ``{"age": (13, 85)}``): in these columns a
        kept row's value must be a number with ``low <= value <= high``, in place of the
        column's domain. The other columns keep their domain.

    Raises
    ------
    ValidationError
        Header, row count, every row deleted, an empty cell in a kept row, a value
        outside its column's domain or range.

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
        raise ValidationError("submission.row_count", got=len(anonymized), expected=len(original))
    x_cache, a_cache = caches or (TableCache(original), TableCache(anonymized))
    deleted = deleted_mask(a_cache)
    if deleted.all():
        raise ValidationError("submission.all_deleted")
    kept = np.flatnonzero(~deleted)
    _check_empty_cells(a_cache, kept)
    ranges = value_ranges or {}
    unknown = [column for column in ranges if column not in original.columns]
    if unknown:  # a misspelt range column would otherwise check nothing
        raise ValidationError(
            "column.unknown_range",
            columns=quoted(unknown),
            known=clip(", ".join(original.columns), 400),
        )
    for column in original.columns:
        if column in ranges:
            low, high = ranges[column]
            _check_range(a_cache, column, kept, low=float(low), high=float(high))
            numbers = a_cache.numbers(column, kept)  # a range as wide as ±1e300 bounds nothing
            _check_magnitude(a_cache, column, kept, numbers, what="submission")
        elif config.domains.get(column) == NUMBER:
            _check_numbers(a_cache, column, kept, what="submission")
        else:
            integral = column in config.integer_columns  # decided on the round's original
            _check_original_values(x_cache, a_cache, column, kept, integral=integral)


def _check_range(
    cache: TableCache, column: str, kept: np.ndarray, *, low: float, high: float
) -> None:
    numbers = cache.numbers(column, kept)
    with np.errstate(invalid="ignore"):
        inside = np.isfinite(numbers) & (numbers >= low) & (numbers <= high)
    bad = np.flatnonzero(~inside)
    if bad.size:
        rows = kept[bad]
        raise ValidationError(
            "submission.outside_range",
            column=repr(clip(column)),
            low=f"{low:g}",
            high=f"{high:g}",
            rows=_row_values(rows, cache.values(column, rows[:MAX_LISTED])),
        )


def _check_empty_cells(cache: TableCache, kept: np.ndarray) -> None:
    any_empty = np.zeros(cache.rows, dtype=bool)
    for column in cache.columns:
        any_empty |= cache.empty(column)
    if not any_empty[kept].any():
        return
    empty_columns = {}
    for column in cache.columns:
        rows = kept[cache.empty(column)[kept]]
        if rows.size:
            empty_columns[column] = rows
    if not empty_columns:
        return
    rows = np.unique(np.concatenate(list(empty_columns.values())))
    columns = [
        [clip(c) for c, r in empty_columns.items() if np.isin(row, r)] for row in rows[:MAX_LISTED]
    ]
    raise ValidationError("submission.empty_cells", rows=listing("rows_values", rows + 1, columns))


def _check_original_values(
    x_cache: TableCache, a_cache: TableCache, column: str, kept: np.ndarray, *, integral: bool
) -> None:
    _, allowed = x_cache.keys(column, integral=integral)
    a_codes, a_keys = a_cache.keys(column, integral=integral)
    unknown = np.append(~_known(a_keys, allowed), True)  # code -1: unparsable
    outside = np.flatnonzero(unknown[a_codes[kept]])
    if outside.size:
        rows = kept[outside]
        values = a_cache.values(column, rows[:MAX_LISTED])
        raise ValidationError(
            "submission.outside_domain", column=repr(clip(column)), rows=_row_values(rows, values)
        )


def _known(keys: np.ndarray, allowed: np.ndarray) -> np.ndarray:
    """Which ``keys`` are among the ``allowed`` ones (distinct numbers or texts, no NaN)."""
    if keys.dtype.kind == "f" and allowed.dtype.kind == "f":
        return np.isin(keys, allowed)
    return pd.Index(allowed).get_indexer(keys) >= 0


def validate_published(published: Table | pd.DataFrame, config: RoundConfig) -> None:
    """Check a published target before an attack reads it: the round's header, no empty cell
    (a target holds kept rows only) and finite numbers of at most 1e15 in the numeric
    columns (``sa`` and the ``number`` domains), each error naming columns and rows.

    Raises
    ------
    ValidationError
    """
    check_header(config.columns, published.columns, what="published table")
    cache = TableCache(published)
    empty = np.zeros(cache.rows, dtype=bool)
    for column in cache.columns:
        empty |= cache.empty(column)
    if empty.any():
        rows = np.flatnonzero(empty)
        columns = [[clip(c) for c in cache.columns if cache.empty(c)[r]] for r in rows[:MAX_LISTED]]
        raise ValidationError(
            "table.published_empty_cells", rows=listing("rows_values", rows + 1, columns)
        )
    every_row = np.arange(cache.rows)
    for column in published.columns:
        if column in config.sa or config.domains.get(column) == NUMBER:
            _check_numbers(cache, column, every_row, what="published table")
