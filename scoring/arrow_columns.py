"""The fast reader's column: an Arrow string array, with cheap paths for plain numbers.

An :class:`ArrowColumn` gives the answers of every :class:`scoring.columns.Column` over an
Arrow string array read by the fast CSV reader (empty cells are nulls). A column whose cells
are all canonical decimal integers (``0``, ``39``, ``-7``; no sign ``+``, no leading zero, at
most 15 digits) is handled as integers: its codes come from the integer values (one code per
distinct integer is one code per distinct text, because the canonical text of an integer is
unique) and its numbers are those integers, exactly what :func:`pandas.to_numeric` gives for
such text. Plain integers with leading zeros still give their numbers that way. A column
whose cells are all plain decimals (``-7.25``, ``.5``) gets every cell's number from one
compiled cast of the whole column, which gives the rule's numbers, and is dictionary-encoded
only when a metric asks for its codes (:meth:`ArrowColumn._plain_decimal_cells`). Any other
column is dictionary-encoded; its distinct texts are parsed by the one numeric rule, or, when
every one is a plain decimal, by the same cast (:func:`_plain_decimal_numbers`).

A column is plain when its bytes hold digits and ``-`` only (``bytes.translate``) and
Arrow's cast to int64 accepts it; Arrow's compiled cast is cheaper than parsing the
digits with numpy one position at a time. The integer path is there because it is the
cheapest way to code a large column: hashing Python strings and Arrow's dictionary
encoding both cost several times more per cell than reading the integers.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from scoring.columns import Column

_MAX_EXACT = 10**15  # below 2**53: int -> float is exact, as pandas would parse the text
_DENSE_SPAN = 1 << 16


class ArrowColumn(Column):
    """A column read by the fast reader: an Arrow string array (an empty cell is null).

    Its cells are used straight from the array's buffers: ``offsets`` (where each cell's
    bytes start) and ``data`` (the UTF-8 bytes of every cell, back to back).
    """

    def __init__(self, array) -> None:
        import pyarrow as pa

        super().__init__()
        if isinstance(array, pa.ChunkedArray):
            if array.num_chunks == 1:
                array = array.chunk(0)  # no copy
            else:
                array = array.combine_chunks() if array.num_chunks else pa.array([], pa.string())
        self._array = array
        self.size = len(array)
        _, offsets, data = array.buffers()
        # Views of the Arrow buffers (no copy): a million-row table holds 25 of each.
        self._offsets = np.frombuffer(offsets, dtype=np.int32)[
            array.offset : array.offset + self.size + 1
        ]
        self._data = (
            np.frombuffer(data, dtype=np.uint8) if data is not None else np.zeros(1, np.uint8)
        )
        self._integers: np.ndarray | None | bool = False  # False: not tried yet
        self._alphabet_found: str | None | bool = False  # False: not looked at yet

    def empty(self) -> np.ndarray:
        if self._empty is None:
            self._empty = self._offsets[1:] == self._offsets[:-1]
        return self._empty

    def values(self, rows: np.ndarray) -> np.ndarray:
        data, offsets = self._data, self._offsets
        return np.array(
            [data[offsets[k] : offsets[k + 1]].tobytes().decode("utf-8") for k in rows.tolist()]
            or [],
            dtype=object,
        )

    def _integer_cells(self) -> np.ndarray | None:
        """Every cell's integer (0 when empty) when all cells are plain integers, else None.

        Plain: ASCII digits after an optional leading ``-``, below 10**15 in magnitude,
        so the value is exactly what :func:`pandas.to_numeric` gives for the text.
        """
        if self._integers is not False:
            return self._integers
        import pyarrow as pa
        import pyarrow.compute as pc

        self._integers = None
        if self._alphabet() != "integer":
            return None  # Arrow's cast also reads "+5" or "0x10", which are not plain
        try:
            parsed = pc.cast(self._array, pa.int64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
        if parsed.null_count:
            parsed = pc.fill_null(parsed, 0)
        values = parsed.to_numpy(zero_copy_only=False)
        if max(-int(values.min()), int(values.max())) >= _MAX_EXACT:
            return None
        self._integers = values
        return values

    def _alphabet(self) -> str | None:
        """``"integer"`` when the cells' bytes hold digits and ``-`` only, ``"decimal"``
        when they also hold ``.``, else None (also for a column of empty cells only). One
        pass over the bytes (``bytes.translate``) answers both."""
        if self._alphabet_found is False:
            self._alphabet_found = None
            first, last = int(self._offsets[0]), int(self._offsets[-1])
            if first != last:
                rest = self._data[first:last].tobytes().translate(None, b"0123456789-")
                if not rest:
                    self._alphabet_found = "integer"
                elif rest.count(b".") == len(rest):
                    self._alphabet_found = "decimal"
        return self._alphabet_found

    def numbers(self, rows: np.ndarray | None = None) -> np.ndarray:
        if self._numbers is None:
            if self._factorized is not None:
                # Once coded, a column's numbers are read through its codes (the base class).
                return super().numbers(rows)
            integers = self._integer_cells()
            if integers is not None:
                numbers = integers.astype(np.float64)
                numbers[self.empty()] = np.nan
                # Not kept beside its numbers: a column that is coded later casts again
                # (milliseconds), most numeric columns never are.
                self._integers = False
            else:
                numbers = self._plain_decimal_cells()
                if numbers is None:
                    return super().numbers(rows)
            self._numbers = numbers
        return self._numbers if rows is None else self._numbers[rows]

    def _plain_decimal_cells(self) -> np.ndarray | None:
        """Every cell's number (NaN when empty) when every cell is a plain decimal, from
        one compiled cast of the whole column; else None.

        A column of many distinct decimals (amounts with cents) then gets its numbers
        without being dictionary-encoded: hashing every cell and turning each distinct
        text into a Python string cost more than the cast itself. Its bytes hold digits,
        ``-`` and ``.`` only (``bytes.translate``), and in that alphabet Arrow's cast
        accepts exactly the plain decimals (``-7.25``, ``.5``, ``39.``) and refuses the rest
        (``1.2.3``, ``1-2``, ``-``, ``.``): ``tests/scoring/test_columns_decimals.py``
        checks every text of up to seven such characters against the one numeric rule.
        """
        import pyarrow as pa
        import pyarrow.compute as pc

        if self._alphabet() not in ("integer", "decimal"):
            return None
        try:
            parsed = pc.cast(self._array, pa.float64())
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
        return parsed.to_numpy(zero_copy_only=False)  # a null (empty cell) is NaN

    def _factorize(self) -> tuple[np.ndarray, np.ndarray]:
        integers = self._integer_cells()
        if integers is None:
            return self._dictionary_codes()
        empty = self.empty()
        codes, distinct, counts, any_empty = _dense_codes(integers, empty)
        texts = [str(v) for v in distinct.tolist()]
        # Canonical texts ("39", not "039" or "-0") are the shortest of their value, so
        # the cells hold exactly those texts when their lengths add up the same.
        lengths = np.fromiter(map(len, texts), dtype=np.int64, count=len(texts))
        if int(counts @ lengths) != int(self._offsets[-1]) - int(self._offsets[0]):
            return self._dictionary_codes()
        numbers = distinct.astype(np.float64)
        # What pandas.factorize of these numbers gives: each distinct value its own code
        # in this order, NaN (the empty rows) -1.
        key_codes = np.where(empty, -1, codes) if any_empty else codes
        self._integer_keys = (key_codes, numbers)
        self._coded_integers = np.append(distinct, 0) if any_empty else distinct
        # The cells' integers are read through the codes from now on: the column does not
        # keep a second array of its size (a million-row table holds 25 of them).
        self._integers = None
        if any_empty:
            texts.append("")
            numbers = np.append(numbers, np.nan)
        self._unique_numbers = numbers
        return codes, np.array(texts, dtype=object)

    def _dictionary_codes(self) -> tuple[np.ndarray, np.ndarray]:
        import pyarrow.compute as pc

        encoded = pc.dictionary_encode(self._array)
        distinct = encoded.dictionary.to_pylist()
        indices = encoded.indices
        codes = pc.fill_null(indices, len(distinct)).to_numpy(zero_copy_only=False)
        numbers = _plain_decimal_numbers(encoded.dictionary)
        if indices.null_count:
            distinct.append("")
            numbers = None if numbers is None else np.append(numbers, np.nan)
        if numbers is not None:
            self._unique_numbers = numbers
        return codes.astype(np.int64, copy=False), np.array(distinct, dtype=object)


# A plain decimal: ASCII digits with an optional leading "-" and one decimal point (``39``,
# ``-7.25``, ``.5``, ``39.``); no "+", exponent, space or word. Every such text is a number
# by the one rule of :mod:`scoring.numbers`.
_PLAIN_DECIMAL = r"^-?([0-9]+\.?[0-9]*|\.[0-9]+)$"


def _plain_decimal_numbers(dictionary) -> np.ndarray | None:
    """The numbers of the distinct texts of an Arrow string array when every one is a plain
    decimal, from Arrow's compiled cast (the costly part of a column of many distinct
    decimals, e.g. amounts with cents, is otherwise parsing each text in Python objects);
    else None, and the texts go through :func:`scoring.numbers.parse_numbers`.

    Arrow's cast gives the same float64 as :func:`pandas.to_numeric` for these texts (both
    round to the nearest double; ``tests/scoring/test_columns_decimals.py`` compares them on
    hundreds of thousands of texts of up to 30 digits).
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    if len(dictionary) == 0 or dictionary.null_count:
        return None
    if not pc.all(pc.match_substring_regex(dictionary, _PLAIN_DECIMAL)).as_py():
        return None
    try:
        return pc.cast(dictionary, pa.float64()).to_numpy(zero_copy_only=False)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None


def _dense_codes(
    values: np.ndarray, empty: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """Codes of integer values into their distinct values (sorted when their range is
    small, else in order of first appearance).

    Returns the codes (``len(distinct)`` for empty rows), the distinct values, how many
    rows hold each, and whether any row is empty.
    """
    any_empty = bool(empty.any())
    if values.size and int(values.min()) >= 0 and int(values.max()) <= _dense_limit(values.size):
        # Small non-negative values (codes): counted in place, an empty row's 0 taken out.
        counts = np.bincount(values)
        if any_empty:
            counts[0] -= np.count_nonzero(empty)
        positions = np.flatnonzero(counts)
        if positions.size == 0:
            return (
                np.zeros(values.size, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
                np.zeros(0, dtype=np.int64),
                any_empty,
            )
        rank = np.zeros(counts.size, dtype=np.int64)
        rank[positions] = np.arange(positions.size)
        codes = rank[values]
        if any_empty:
            codes[empty] = positions.size
        return codes, positions.astype(np.int64, copy=False), counts[positions], any_empty
    filled = values[~empty] if any_empty else values
    if filled.size == 0:
        return (
            np.zeros(values.size, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            np.zeros(0, dtype=np.int64),
            any_empty,
        )
    low, high = int(filled.min()), int(filled.max())
    if high - low <= _dense_limit(values.size):
        counts = np.bincount(filled - low, minlength=high - low + 1)
        positions = np.flatnonzero(counts)
        distinct = positions + low
        shifted = values - low
        if any_empty:
            shifted[empty] = 0  # the minimum's position, overwritten below
        if positions.size == counts.size:  # every value of the range occurs
            codes = shifted
        else:
            rank = np.zeros(counts.size, dtype=np.int64)
            rank[positions] = np.arange(positions.size)
            codes = rank[shifted]
        counts = counts[positions]
    else:
        codes, distinct = pd.factorize(values)
        codes = codes.astype(np.int64, copy=False)
        distinct = np.asarray(distinct, dtype=np.int64)
        if any_empty:  # the 0 of empty rows may have made a value of its own
            used = np.unique(codes[~empty])
            remap = np.full(distinct.size, -1, dtype=np.int64)
            remap[used] = np.arange(used.size)
            codes, distinct = remap[codes], distinct[used]
        counts = np.bincount(codes[~empty] if any_empty else codes, minlength=distinct.size)
    if any_empty:
        codes[empty] = distinct.size
    return codes, distinct, counts, any_empty


def _dense_limit(size: int) -> int:
    """The widest range of values that :func:`_dense_codes` counts in an array."""
    return 4 * size + _DENSE_SPAN
