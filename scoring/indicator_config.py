"""The ``indicators`` block of a round configuration (spec indicators-and-kit.md A.4), checked.

:func:`load_indicators` checks the organizer's JSON block against the original table and
decides the defaults (the column's kind, its bins, ``l``, the distance);
:class:`IndicatorConfig` is the result, which :mod:`scoring.indicators` computes with.
Reading the organizer's settings is kept apart from the computation, as it is for the
round's other settings (:mod:`scoring.schema`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from scoring.columns import Table, as_table
from scoring.errors import ConfigError

CATEGORICAL, NUMERIC = "categorical", "numeric"
EQUAL, ORDERED = "equal", "ordered"
DEFAULT_BINS = 5
DEFAULT_L = 2
_KEYS = ("sa", "kind", "bins", "l", "t_distance", "order")


@dataclass(frozen=True)
class IndicatorConfig:
    """The ``indicators`` block of a round configuration, checked (spec A.4).

    ``kind``, ``t_distance`` and ``bins`` hold the decided values (defaults filled in):
    ``bins`` is an integer ``B >= 2`` (equal-frequency edges from the original table) or
    a tuple of explicit edges.
    """

    sa: str
    kind: str
    bins: int | tuple[float, ...] = DEFAULT_BINS
    l: int = DEFAULT_L  # noqa: E741 - the spec's name
    t_distance: str = EQUAL
    order: tuple[str, ...] | None = None

    def to_dict(self) -> dict:
        return {
            "sa": self.sa,
            "kind": self.kind,
            "bins": self.bins if isinstance(self.bins, int) else list(self.bins),
            "l": self.l,
            "t_distance": self.t_distance,
            "order": None if self.order is None else list(self.order),
        }


def _is_int(value: Any) -> bool:
    return isinstance(value, int | np.integer) and not isinstance(value, bool)


def _is_finite_number(value: Any) -> bool:
    return (
        isinstance(value, int | float | np.integer | np.floating)
        and not isinstance(value, bool)
        and bool(np.isfinite(value))
    )


def load_indicators(raw: Any, original: Table | pd.DataFrame, *, qi: Sequence[str] = ()):
    """Check an ``indicators`` block against the original table (``None`` stays ``None``).

    Examples
    --------
    >>> x = pd.DataFrame({"q": ["1", "2"], "d": ["flu", "cold"]})
    >>> load_indicators({"sa": "d"}, x).to_dict()
    {'sa': 'd', 'kind': 'categorical', 'bins': 5, 'l': 2, 't_distance': 'equal', 'order': None}
    >>> load_indicators({"sa": "zip"}, x)
    Traceback (most recent call last):
    ...
    scoring.errors.ConfigError: indicators.sa 'zip' is not a column of the table (columns: q, d)
    """
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ConfigError('"indicators" must be an object such as {"sa": "Disease"}.')
    unknown = [key for key in raw if key not in _KEYS]
    if unknown:
        raise ConfigError(
            f"Unknown key(s) in indicators: {', '.join(map(repr, unknown))} "
            f"(allowed: {', '.join(_KEYS)})."
        )
    table = as_table(original)
    # The checks in the order their errors are reported.
    sa = _indicator_sa(raw.get("sa"), table, qi)
    column = table.column(sa)
    kind, uniques = _indicator_kind(raw.get("kind"), column, sa)
    bins = _indicator_bins(raw.get("bins", DEFAULT_BINS))
    level = raw.get("l", DEFAULT_L)
    level = DEFAULT_L if level is None else level
    if not _is_int(level) or level < 2:
        raise ConfigError(f"indicators.l must be an integer >= 2, not {str(level)[:80]!r}")
    distance = raw.get("t_distance")
    if distance is None:
        distance = ORDERED if kind == NUMERIC else EQUAL
    elif distance not in (EQUAL, ORDERED):
        raise ConfigError(
            f"indicators.t_distance must be 'equal' or 'ordered', not {str(distance)[:80]!r}"
        )
    order = raw.get("order")
    if order is not None:
        if not isinstance(order, list | tuple) or not all(isinstance(v, str) for v in order):
            raise ConfigError("indicators.order must be a list of the column's values (strings)")
        if len(set(order)) != len(order):
            raise ConfigError("indicators.order lists a value more than once")
        order = tuple(order)
    if kind == CATEGORICAL and distance == ORDERED:
        _order_covers(column, sa, order, uniques)
    return IndicatorConfig(sa, kind, bins, int(level), distance, order)


def _indicator_sa(sa: Any, table: Table, qi: Sequence[str]) -> str:
    columns = tuple(str(c) for c in table.columns)
    if not isinstance(sa, str) or sa not in columns:
        raise ConfigError(
            f"indicators.sa {sa!r} is not a column of the table (columns: {', '.join(columns)})"
        )
    if sa in qi:
        raise ConfigError(
            f"indicators.sa {sa!r} is a qi column; choose an sa column or a column with no role"
        )
    return sa


def _indicator_kind(kind: Any, column, sa: str):
    """The SA's kind (given, or numeric when every non-empty cell is a number) and its
    distinct values when they were read (``None`` for an all-numbers column)."""
    # Only numbers and empty cells (the usual numeric column): no need to look at the
    # text of its distinct values.
    numeric_only = not np.any(~np.isfinite(column.numbers()) & ~column.empty())
    uniques = None
    if numeric_only:
        kind = NUMERIC if kind is None else kind
    else:
        codes, uniques = column.factorized()
        numbers = column.unique_numbers()
        present = _present(uniques)
        if kind is None:
            kind = NUMERIC if bool(np.isfinite(numbers[present]).all()) else CATEGORICAL
    if kind not in (CATEGORICAL, NUMERIC):
        raise ConfigError(
            f"indicators.kind must be 'categorical' or 'numeric', not {str(kind)[:80]!r}"
        )
    if kind == NUMERIC and not numeric_only:
        bad_rows = np.flatnonzero((present & ~np.isfinite(numbers))[codes])
        if bad_rows.size:
            listed = ", ".join(
                f"row {int(r) + 1} ({str(v)[:80]!r})"
                for r, v in zip(bad_rows[:10], column.values(bad_rows[:10]), strict=True)
            )
            raise ConfigError(
                f"kind 'numeric' but column {sa!r} holds non-numbers: {listed} "
                f"({bad_rows.size} rows in total)"
            )
    return kind, uniques


def _present(uniques) -> np.ndarray:
    """Which distinct values are not empty cells."""
    return np.asarray([str(u).strip() != "" for u in uniques], dtype=bool)


def _indicator_bins(bins: Any):
    """A number of bins (at least 2) or increasing finite edges."""
    bins = DEFAULT_BINS if bins is None else bins
    if _is_int(bins):
        if bins < 2:
            raise ConfigError(_BINS_MESSAGE)
        return int(bins)
    if isinstance(bins, list | tuple):
        if not bins or not all(_is_finite_number(b) for b in bins):
            raise ConfigError(_BINS_MESSAGE)
        if any(b >= a for b, a in zip(bins, bins[1:], strict=False)):
            raise ConfigError(_BINS_MESSAGE)
        return tuple(float(b) for b in bins)
    raise ConfigError(_BINS_MESSAGE)


def _order_covers(column, sa: str, order, uniques) -> None:
    """An ordered categorical SA: ``order`` lists every value of the column."""
    if uniques is None:
        uniques = column.factorized()[1]
    values = sorted({str(u).strip() for u in uniques[_present(uniques)]})
    missing = [v for v in values if v not in set(order or ())]
    if missing:
        raise ConfigError(
            f"column {sa!r}: values {missing[:10]!r} are missing from the 'order' list"
        )


_BINS_MESSAGE = (
    "indicators.bins must be an integer >= 2 or a strictly increasing list of finite numbers"
)
