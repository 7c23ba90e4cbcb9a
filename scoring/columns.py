"""A table as columns, each derived once into the forms the engine needs.

A :class:`Table` holds one :class:`Column` per header name. A column answers, each
computed on first use and kept: which cells are empty, its distinct text values and
every row's code into them (:meth:`Column.factorized`), the numbers of the distinct
values (the one rule of :mod:`scoring.numbers`), every row's number, and the text of
given rows (for messages). Validation, the configuration check and every metric ask the
same column, so nothing is hashed or parsed twice.

Two kinds of column give the same answers: :class:`ObjectColumn` over an array of Python
``str`` (a DataFrame column), and :class:`scoring.arrow_columns.ArrowColumn` over an Arrow
string array read by the fast CSV reader, which reads plain integer and decimal columns
without hashing their cells.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from scoring.numbers import parse_numbers


class Column:
    """One column of a table; subclasses give :meth:`_factorize` and :meth:`values`."""

    size: int

    def __init__(self) -> None:
        self._factorized: tuple[np.ndarray, np.ndarray] | None = None
        self._unique_numbers: np.ndarray | None = None
        self._numbers: np.ndarray | None = None
        self._empty: np.ndarray | None = None
        self._keys: dict[bool, tuple[np.ndarray, np.ndarray]] = {}
        # Set by a factorisation that found plain integers: the integral keys, which are
        # then the distinct integers themselves (no NaN; code -1 for empty rows), and the
        # integer of each code (0 for the empty cells' code, the last).
        self._integer_keys: tuple[np.ndarray, np.ndarray] | None = None
        self._coded_integers: np.ndarray | None = None

    def factorized(self) -> tuple[np.ndarray, np.ndarray]:
        """Row codes (int64) into the distinct text values (object array of ``str``)."""
        if self._factorized is None:
            self._factorized = self._factorize()
        return self._factorized

    def _factorize(self) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def values(self, rows: np.ndarray) -> np.ndarray:
        """The text of the given rows (object array of ``str``)."""
        codes, uniques = self.factorized()
        return uniques[codes[rows]]

    def unique_numbers(self) -> np.ndarray:
        """The distinct values parsed as numbers (NaN when not a number)."""
        if self._unique_numbers is None:
            uniques = self.factorized()[1]  # an integer column's factorisation sets them
            if self._unique_numbers is None:
                self._unique_numbers = parse_numbers(uniques)
        return self._unique_numbers

    def numbers(self, rows: np.ndarray | None = None) -> np.ndarray:
        """Every row (or the given rows) as float64; NaN when not a number."""
        if self._numbers is None:
            self._numbers = self.unique_numbers()[self.factorized()[0]]
        return self._numbers if rows is None else self._numbers[rows]

    def empty(self) -> np.ndarray:
        """Rows whose cell is empty."""
        if self._empty is None:
            codes, uniques = self.factorized()
            self._empty = (uniques == "")[codes]
        return self._empty

    def is_integral(self) -> bool:
        """Whether every value is an integral number (below 2**53 in magnitude)."""
        # Every row's numbers, when read already, hold the same values as the distinct ones.
        numbers = self._numbers if self._numbers is not None else self.unique_numbers()
        return bool(
            numbers.size
            and np.isfinite(numbers).all()
            and np.all(numbers == np.round(numbers))
            and np.all(np.abs(numbers) < 2**53)
        )

    def integers(
        self, *, minus: int = 0, empty: int = 0, dtype: type = np.int64
    ) -> np.ndarray | None:
        """Every cell's integer less ``minus`` (``empty`` for an empty cell), as ``dtype``,
        when the column was factorised as plain integers (its integral keys are then those
        integers), else None. One array of ``dtype``, read through the codes (a narrow
        ``dtype`` keeps a million-row column's copy small)."""
        codes = self.factorized()[0]
        if self._integer_keys is None or self._coded_integers is None:
            return None
        values = self._coded_integers - minus
        if values.size > len(self._integer_keys[1]):  # the empty cells' code is the last
            values[-1] = empty
        return values.astype(dtype, copy=False)[codes]

    def keys(self, *, integral: bool) -> tuple[np.ndarray, np.ndarray]:
        """Row codes into distinct comparison keys, and those keys.

        Keys are the numbers for an integral column (an unparsable value gets code -1),
        else the text itself.
        """
        if integral not in self._keys:
            codes, uniques = self.factorized()
            if integral and self._integer_keys is not None:
                codes, uniques = self._integer_keys
            elif integral:
                key_codes, keys = pd.factorize(self.unique_numbers(), use_na_sentinel=True)
                codes, uniques = key_codes.astype(np.int64, copy=False)[codes], np.asarray(keys)
            self._keys[integral] = (codes, uniques)
        return self._keys[integral]


class ObjectColumn(Column):
    """A column of Python ``str`` cells (e.g. of a DataFrame)."""

    def __init__(self, values: np.ndarray) -> None:
        super().__init__()
        self._values = np.asarray(values, dtype=object)
        self.size = self._values.size

    def _factorize(self) -> tuple[np.ndarray, np.ndarray]:
        codes, uniques = pd.factorize(self._values)
        return codes.astype(np.int64, copy=False), np.asarray(uniques, dtype=object)

    def values(self, rows: np.ndarray) -> np.ndarray:
        return self._values[rows]


class Table:
    """A table with a header, as :class:`Column` objects (``len(table)`` is its rows).

    Examples
    --------
    >>> table = Table.from_frame(pd.DataFrame({"a": ["1", "", "1"]}))
    >>> table.columns, len(table), table.column("a").empty().tolist()
    (['a'], 3, [False, True, False])
    """

    def __init__(self, columns: Sequence[str], data: Sequence[Column], rows: int) -> None:
        self.columns = list(columns)
        self._data = dict(zip(self.columns, data, strict=True))
        self._rows = rows

    @classmethod
    def from_frame(cls, frame: pd.DataFrame) -> Table:
        """A table over the cells of a DataFrame of text (no copy of the cells)."""
        columns = [str(c) for c in frame.columns]
        data = [ObjectColumn(frame.iloc[:, k].to_numpy(dtype=object)) for k in range(len(columns))]
        return cls(columns, data, len(frame))

    def __len__(self) -> int:
        return self._rows

    def column(self, name: str) -> Column:
        return self._data[name]

    def to_frame(self) -> pd.DataFrame:
        """The table as a DataFrame of ``str`` cells; equal cells share one object."""
        cells = {}
        for name in self.columns:
            codes, uniques = self._data[name].factorized()
            cells[name] = uniques[codes] if codes.size else np.empty(0, dtype=object)
        frame = pd.DataFrame(cells, index=pd.RangeIndex(self._rows), dtype=object)
        frame.columns = self.columns
        return frame


def as_table(source: Table | pd.DataFrame) -> Table:
    """``source`` itself when it is a :class:`Table`, else a table over its cells."""
    return source if isinstance(source, Table) else Table.from_frame(source)
