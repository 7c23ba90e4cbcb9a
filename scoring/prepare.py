"""Turning validated text tables into numbers: QI class codes and SA matrices.

A QI value is compared as trimmed text, except in a column whose original values are
all integers: there every value that parses as an integral number is that integer
(``39``, ``39.0``, ``+39`` are all 39). Codes are dense integers shared by the two
tables being compared; a combination of several columns becomes one class id.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np
import pandas as pd

_MAX_SPAN = 2**62


def numeric_values(values: Sequence | np.ndarray | pd.Series) -> np.ndarray:
    """Parse text cells as float64; anything unparsable becomes NaN.

    Examples
    --------
    >>> numeric_values(["1", "2.5", "x", ""]).tolist()
    [1.0, 2.5, nan, nan]
    """
    array = np.asarray(values, dtype=object) if not isinstance(values, np.ndarray) else values
    if array.dtype.kind in "fiu":
        return array.astype(np.float64)
    parsed = pd.to_numeric(pd.Series(array, dtype=object, copy=False), errors="coerce")
    return parsed.to_numpy(dtype=np.float64, na_value=np.nan)


def is_integral_column(values: Sequence | np.ndarray | pd.Series) -> bool:
    """Whether every value of an (original) column is an integral number.

    Examples
    --------
    >>> is_integral_column(["39", "40"]), is_integral_column(["39", "a"])
    (True, False)
    """
    numbers = numeric_values(values)
    if numbers.size == 0:
        return False
    finite = np.isfinite(numbers)
    if not finite.all():
        return False
    return bool(np.all(numbers == np.round(numbers)) and np.all(np.abs(numbers) < 2**53))


def canonical_keys(values: Sequence | np.ndarray | pd.Series, *, integral: bool) -> np.ndarray:
    """Comparison keys of a QI column: numbers (NaN if unparsable) or the text itself."""
    if integral:
        return numeric_values(values)
    array = np.asarray(values, dtype=object)
    return array


def encode_pair(
    reference: np.ndarray, released: np.ndarray, *, integral: bool
) -> tuple[np.ndarray, np.ndarray, int]:
    """Dense codes of one QI column over two tables; -1 for an unparsable integral cell.

    Returns
    -------
    reference_codes, released_codes : ndarray of int64
    cardinality : int
        Number of distinct codes.
    """
    keys = np.concatenate(
        [canonical_keys(reference, integral=integral), canonical_keys(released, integral=integral)]
    )
    codes, uniques = pd.factorize(keys, use_na_sentinel=True)
    codes = codes.astype(np.int64, copy=False)
    return codes[: len(reference)], codes[len(reference) :], len(uniques)


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
    invalid = key < 0
    span = max(int(cardinalities[0]), 1)
    for column_codes, cardinality in zip(codes[1:], cardinalities[1:], strict=True):
        cardinality = max(int(cardinality), 1)
        if span * cardinality >= _MAX_SPAN:
            key, uniques = pd.factorize(key)
            span = max(len(uniques), 1)
        key = key * cardinality + column_codes
        span *= cardinality
        invalid |= column_codes < 0
    out = np.full(size, -1, dtype=np.int64)
    dense, _ = pd.factorize(key[~invalid])
    out[~invalid] = dense
    return out


def class_ids(
    reference: pd.DataFrame,
    released: pd.DataFrame,
    columns: Sequence[str],
    integral: dict[str, bool],
) -> tuple[np.ndarray, np.ndarray]:
    """Class ids of reference and released rows grouped by ``columns`` (shared id space)."""
    n_ref = len(reference)
    ref_codes, rel_codes, cards = [], [], []
    for column in columns:
        ref_c, rel_c, card = encode_pair(
            reference[column].to_numpy(dtype=object),
            released[column].to_numpy(dtype=object),
            integral=integral[column],
        )
        ref_codes.append(ref_c)
        rel_codes.append(rel_c)
        cards.append(card)
    both = [np.concatenate([r, q]) for r, q in zip(ref_codes, rel_codes, strict=True)]
    ids = combine_codes(both, cards, n_ref + len(released))
    return ids[:n_ref], ids[n_ref:]


def sa_matrix(table: pd.DataFrame, columns: Sequence[str]) -> np.ndarray:
    """The ``columns`` of a table as a float64 matrix (rows x columns)."""
    if not columns:
        return np.zeros((len(table), 0))
    return np.column_stack([numeric_values(table[c].to_numpy(dtype=object)) for c in columns])


def deleted_mask(table: pd.DataFrame) -> np.ndarray:
    """Rows whose cells are all empty (deleted rows)."""
    mask = np.ones(len(table), dtype=bool)
    for column in table.columns:
        mask &= table[column].to_numpy(dtype=object) == ""
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

    def __init__(self, original: pd.DataFrame, anonymized: pd.DataFrame, config) -> None:
        self.config = config
        self.original = original
        self.n = len(original)
        self.kept = np.flatnonzero(~deleted_mask(anonymized))
        self.released = anonymized.iloc[self.kept].reset_index(drop=True)
        self.x_sa = sa_matrix(original, config.sa)
        self.a_sa = sa_matrix(self.released, config.sa)

    @cached_property
    def integral(self) -> dict[str, bool]:
        """Whether each QI column of X is integral (compared as integers)."""
        return {
            c: is_integral_column(self.original[c].to_numpy(dtype=object)) for c in self.config.qi
        }

    @cached_property
    def cross_ids(self) -> tuple[np.ndarray, np.ndarray]:
        """Cross-tabulation cell ids of X rows and of kept A rows (shared id space)."""
        return class_ids(self.original, self.released, self.config.cross, self.integral)

    @cached_property
    def qi_ids(self) -> np.ndarray:
        """Equivalence class ids of the kept A rows over all ``qi`` columns."""
        _, ids = class_ids(self.original.iloc[:0], self.released, self.config.qi, self.integral)
        return ids
