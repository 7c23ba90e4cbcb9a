"""Turning validated text tables into numbers: QI class codes and SA matrices.

A QI value is compared as trimmed text, except in a column whose original values are
all integers: there every value that parses as an integral number is that integer
(``39``, ``39.0``, ``+39`` are all 39). Codes are dense integers shared by the two
tables being compared; a combination of several columns becomes one class id.

Every column is hashed once (:class:`TableCache`); parsing and comparisons then work
on its distinct values only, which are few for codes and never more than the rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np
import pandas as pd

from scoring.columns import Table, as_table
from scoring.numbers import parse_numbers

_MAX_SPAN = 2**62
_MAX_CODE_SPAN = 1 << 20  # integer codes wider than this are factorised (encode_pair)


def numeric_values(values: Sequence | np.ndarray | pd.Series) -> np.ndarray:
    """Parse text cells as float64 (NaN if unparsable), each distinct value once.

    Examples
    --------
    >>> numeric_values(["1", "2.5", "x", "", "1"]).tolist()
    [1.0, 2.5, nan, nan, 1.0]
    """
    array = np.asarray(values, dtype=object)
    codes, uniques = pd.factorize(array)
    return parse_numbers(uniques)[codes]


def _integral(numbers: np.ndarray) -> bool:
    return bool(
        numbers.size
        and np.isfinite(numbers).all()
        and np.all(numbers == np.round(numbers))
        and np.all(np.abs(numbers) < 2**53)
    )


def is_integral_column(values: Sequence | np.ndarray | pd.Series) -> bool:
    """Whether every value of an (original) column is an integral number.

    Examples
    --------
    >>> is_integral_column(["39", "40"]), is_integral_column(["39", "a"])
    (True, False)
    """
    return _integral(parse_numbers(pd.unique(np.asarray(values, dtype=object))))


class TableCache:
    """A table's columns with their factorisation, numbers and keys, computed on first use.

    Built over a :class:`scoring.columns.Table` (then shared with every other cache of
    that table) or over a DataFrame of text. ``codes(column)`` maps every row to an index
    into ``uniques(column)``; numbers and comparison keys come from the distinct values.
    """

    def __init__(self, table: Table | pd.DataFrame) -> None:
        self.table = as_table(table)
        self.columns = self.table.columns
        self.rows = len(self.table)

    @cached_property
    def frame(self) -> pd.DataFrame:
        """The table as a DataFrame of text."""
        return self.table.to_frame()

    def factorized(self, column: str) -> tuple[np.ndarray, np.ndarray]:
        """Row codes and distinct text values of a column."""
        return self.table.column(column).factorized()

    def unique_numbers(self, column: str) -> np.ndarray:
        """The distinct values of a column parsed as numbers (NaN if unparsable)."""
        return self.table.column(column).unique_numbers()

    def numbers(self, column: str, rows: np.ndarray | None = None) -> np.ndarray:
        """A column as float64 (NaN if unparsable), optionally for some rows only."""
        return self.table.column(column).numbers(rows)

    def values(self, column: str, rows: np.ndarray) -> np.ndarray:
        """The text of some rows of a column (for messages)."""
        return self.table.column(column).values(rows)

    def empty(self, column: str) -> np.ndarray:
        """Rows whose cell in ``column`` is empty."""
        return self.table.column(column).empty()

    def is_integral(self, column: str) -> bool:
        """Whether every value of the column is an integral number."""
        return self.table.column(column).is_integral()

    def keys(self, column: str, *, integral: bool) -> tuple[np.ndarray, np.ndarray]:
        """Row codes into distinct comparison keys, and those keys.

        Keys are the numbers for an integral column (an unparsable value gets code -1),
        else the text itself.
        """
        return self.table.column(column).keys(integral=integral)


def encode_pair(
    reference: TableCache,
    released: TableCache,
    column: str,
    *,
    integral: bool,
    released_rows: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, int]:
    """Dense codes of one QI column over two tables; -1 for an unparsable integral cell.

    Returns
    -------
    reference_codes, released_codes : ndarray of int64
    cardinality : int
        Number of distinct codes.
    """
    ref_codes, ref_keys = reference.keys(column, integral=integral)
    rel_codes, rel_keys = released.keys(column, integral=integral)
    if released_rows is not None:
        rel_codes = rel_codes[released_rows]
    shared, keys = pd.factorize(np.concatenate([ref_keys, rel_keys]), use_na_sentinel=True)
    shared = np.append(shared.astype(np.int64, copy=False), -1)  # index -1 stays -1
    rel_index = np.where(rel_codes < 0, -1, ref_keys.size + rel_codes)
    return shared[ref_codes], shared[rel_index], len(keys)


def combine_codes(
    codes: Sequence[np.ndarray], cardinalities: Sequence[int], size: int
) -> np.ndarray:
    """Dense class ids of the rows' code combinations; -1 when any code is -1.

    Examples
    --------
    >>> combine_codes([np.array([0, 1, 0]), np.array([2, 2, 2])], [2, 3], 3).tolist()
    [0, 1, 0]
    """
    if not codes:
        return np.zeros(size, dtype=np.int64)
    key = codes[0].astype(np.int64, copy=True)
    negative = [c for c in codes if c.size and c.min() < 0]  # -1: matches nothing
    span = max(int(cardinalities[0]), 1)
    for column_codes, cardinality in zip(codes[1:], cardinalities[1:], strict=True):
        cardinality = max(int(cardinality), 1)
        if span * cardinality >= _MAX_SPAN:
            key, uniques = pd.factorize(key)
            key = key.astype(np.int64, copy=False)
            span = max(len(uniques), 1)
        key *= cardinality
        key += column_codes
        span *= cardinality
    if not negative:
        return pd.factorize(key)[0].astype(np.int64, copy=False)
    invalid = negative[0] < 0
    for column_codes in negative[1:]:
        invalid |= column_codes < 0
    out = np.full(size, -1, dtype=np.int64)
    dense, _ = pd.factorize(key[~invalid])
    out[~invalid] = dense
    return out


def class_ids(
    reference: TableCache,
    released: TableCache,
    columns: Sequence[str],
    integral: dict[str, bool],
    *,
    released_rows: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Class ids of reference and released rows grouped by ``columns`` (shared id space)."""
    n_ref = reference.rows
    n_rel = released.rows if released_rows is None else released_rows.size
    both, cards = [], []
    for column in columns:
        ref_c, rel_c, card = encode_pair(
            reference, released, column, integral=integral[column], released_rows=released_rows
        )
        both.append(np.concatenate([ref_c, rel_c]))
        cards.append(card)
    ids = combine_codes(both, cards, n_ref + n_rel)
    return ids[:n_ref], ids[n_ref:]


def sa_matrix(
    table: TableCache, columns: Sequence[str], rows: np.ndarray | None = None
) -> np.ndarray:
    """The ``columns`` of a table as a float64 matrix (rows x columns)."""
    size = table.rows if rows is None else rows.size
    matrix = np.empty((size, len(columns)))
    for k, column in enumerate(columns):
        matrix[:, k] = table.numbers(column, rows)
    return matrix


def deleted_mask(table: pd.DataFrame | TableCache) -> np.ndarray:
    """Rows whose cells are all empty (deleted rows)."""
    cache = table if isinstance(table, TableCache) else TableCache(table)
    mask = np.ones(cache.rows, dtype=bool)
    for column in cache.columns:
        mask &= cache.empty(column)
    return mask


class ScoringData:
    """An original table and a validated submission, converted once for all metrics.

    Attributes
    ----------
    n : int
        Rows of the original table.
    kept : ndarray of int64
        0-based indices of the kept (non-deleted) rows.
    x_sa, a_sa : ndarray
        ``sa`` columns of X (n rows) and of the kept rows of A (float64).
    """

    def __init__(
        self,
        original: Table | pd.DataFrame,
        anonymized: Table | pd.DataFrame,
        config,
        *,
        caches: tuple[TableCache, TableCache] | None = None,
        x_sa: np.ndarray | None = None,
    ) -> None:
        self.config = config
        self.x_cache, self.a_cache = caches or (TableCache(original), TableCache(anonymized))
        self.n = self.x_cache.rows
        self.kept = np.flatnonzero(~deleted_mask(self.a_cache))
        self.x_sa = sa_matrix(self.x_cache, config.sa) if x_sa is None else x_sa
        self.a_sa = sa_matrix(self.a_cache, config.sa, self.kept)

    @cached_property
    def x_spread(self) -> np.ndarray:
        """The range (max - min) of every ``sa`` column of X (U4, U5): ``np.ptp``, on a
        column-major copy, so that each column's reduction reads contiguous memory."""
        columns = np.asfortranarray(self.x_sa)
        return columns.max(axis=0) - columns.min(axis=0)

    @cached_property
    def x_mean(self) -> np.ndarray:
        """The mean of every ``sa`` column of X (U1, U4)."""
        return self.x_sa.mean(axis=0)

    @cached_property
    def a_mean(self) -> np.ndarray:
        """The mean of every ``sa`` column of the kept rows of A (U1, U4; NaN without rows)."""
        if self.a_sa.shape[0] == 0:
            return np.full(self.a_sa.shape[1], np.nan)
        return self.a_sa.mean(axis=0)

    @cached_property
    def released(self) -> pd.DataFrame:
        """The kept rows of A (index reset)."""
        return self.a_cache.frame.iloc[self.kept].reset_index(drop=True)

    @cached_property
    def integral(self) -> dict[str, bool]:
        """Whether each QI column is compared as integers (``config.integer_columns``)."""
        return {c: c in self.config.integer_columns for c in self.config.qi}

    @cached_property
    def _shared_codes(self) -> dict[str, tuple[np.ndarray, np.ndarray, int]]:
        """Per QI column: :func:`encode_pair` of X and every row of A, made once for
        the cross, match and QI classes."""
        return {}

    def _pair_codes(self, column: str) -> tuple[np.ndarray, np.ndarray, int]:
        if column not in self._shared_codes:
            codes = self._integer_codes(column) if self.integral[column] else None
            if codes is None:
                codes = encode_pair(
                    self.x_cache, self.a_cache, column, integral=self.integral[column]
                )
            self._shared_codes[column] = codes
        return self._shared_codes[column]

    def _integer_codes(self, column: str) -> tuple[np.ndarray, np.ndarray, int] | None:
        """Codes of a column of plain integers in both tables: the integers themselves,
        less the smallest (-1 for an empty cell). Not dense, but the class ids made of
        them are those of :func:`encode_pair`'s codes: both are one code per value."""
        x, a = self.x_cache.table.column(column), self.a_cache.table.column(column)
        x_keys, a_keys = x.keys(integral=True)[1], a.keys(integral=True)[1]
        if x_keys.size == 0 or a_keys.size == 0:
            return None
        low = int(min(x_keys.min(), a_keys.min()))
        span = int(max(x_keys.max(), a_keys.max())) - low + 1
        if span > _MAX_CODE_SPAN:
            return None
        # int32 holds every code below _MAX_CODE_SPAN (and -1): half an int64 copy.
        x_codes = x.integers(minus=low, empty=-1, dtype=np.int32)
        a_codes = a.integers(minus=low, empty=-1, dtype=np.int32)
        if x_codes is None or a_codes is None:
            return None
        return x_codes, a_codes, span

    def _class_ids(self, columns: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """:func:`class_ids` of X and the kept rows of A, from the shared codes."""
        both, cards = [], []
        for column in columns:
            ref_codes, rel_codes, cardinality = self._pair_codes(column)
            both.append(np.concatenate([ref_codes, rel_codes[self.kept]]))
            cards.append(cardinality)
        ids = combine_codes(both, cards, self.n + self.kept.size)
        return ids[: self.n], ids[self.n :]

    @cached_property
    def cross_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """Cross-tabulation cell ids of X rows and of kept A rows (shared id space)."""
        return self._class_ids(self.config.cross)

    @cached_property
    def match_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """Attack class ids (``match_qi``) of X rows and of kept A rows."""
        return self._class_ids(self.config.match_qi)

    @cached_property
    def qi_ids(self) -> np.ndarray:
        """Equivalence class ids of the kept A rows over all ``qi`` columns.

        Numbered in the order of first appearance among the kept rows (-1 for a row
        with an unparsable integral cell), whatever the codes of the columns: a
        renumbering of :attr:`match_ids` when those group by all ``qi`` too.
        """
        if set(self.config.match_qi) == set(self.config.qi):
            ids = self.match_ids[1]
            valid = ids >= 0
            if valid.all():
                return pd.factorize(ids)[0].astype(np.int64, copy=False)
            out = np.full(ids.size, -1, dtype=np.int64)
            out[valid] = pd.factorize(ids[valid])[0]
            return out
        codes, cards = [], []
        for column in self.config.qi:
            _, rel_codes, cardinality = self._pair_codes(column)
            codes.append(rel_codes[self.kept])
            cards.append(cardinality)
        return combine_codes(codes, cards, self.kept.size)
