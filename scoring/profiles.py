"""What an organizer sees of each column of an uploaded table before choosing its roles (a
round's creation page): its distinct values, whether it holds numbers (the platform's one
number rule, ``scoring.numbers.parse_numbers``), whole numbers only, how many cells are
empty and a few examples. Each kind proposes its roles from these; the numbers are computed
here once."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from scoring.numbers import parse_numbers
from scoring.prepare import is_integral_column

EXAMPLES = 4
EXAMPLE_CHARS = 30


@dataclass(frozen=True)
class ColumnProfile:
    """A column of text cells: ``distinct`` non-empty values, ``numeric`` (every non-empty
    cell a finite number, one at least), ``integral`` (and each a whole number), ``empty``
    cells and ``examples`` (the first distinct non-empty values, each cut short)."""

    name: str
    distinct: int
    numeric: bool
    integral: bool
    empty: int
    examples: tuple[str, ...]

    @property
    def all_numeric(self) -> bool:
        """Every cell a finite number (numeric, and none empty)."""
        return self.numeric and not self.empty


def column_profiles(table: pd.DataFrame) -> list[ColumnProfile]:
    """The profile of each column of ``table`` (text cells), in its order.

    Examples
    --------
    >>> table = pd.DataFrame({"age": ["39", "", "40"], "job": ["a", "b", "a"]})
    >>> [(p.name, p.distinct, p.numeric, p.integral, p.empty) for p in column_profiles(table)]
    [('age', 2, True, True, 1), ('job', 2, False, False, 0)]
    >>> column_profiles(table)[0].all_numeric
    False
    """
    profiles = []
    for column in table.columns:
        values = table[column].to_numpy(dtype=object)
        empty = values == ""
        filled = values[~empty]
        uniques = pd.unique(filled)
        numeric = bool(uniques.size) and bool(np.isfinite(parse_numbers(uniques)).all())
        profiles.append(
            ColumnProfile(
                name=str(column),
                distinct=int(uniques.size),
                numeric=numeric,
                integral=numeric and is_integral_column(uniques),
                empty=int(empty.sum()),
                examples=tuple(str(v)[:EXAMPLE_CHARS] for v in uniques[:EXAMPLES]),
            )
        )
    return profiles
