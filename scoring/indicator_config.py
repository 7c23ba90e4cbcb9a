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
from scoring.errors import ConfigChecks, ConfigError
from scoring.messages import ECHO_LIMIT, MAX_LISTED, clip, listing, quoted, quoted_value

CATEGORICAL, NUMERIC = "categorical", "numeric"
EQUAL, ORDERED = "equal", "ordered"
DEFAULT_BINS = 5
DEFAULT_L = 2
_KEYS = ("sa", "kind", "bins", "l", "t_distance", "order")
# The block's key in a round configuration, which every message names.
_KEY = "indicators"


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

    Every error found is reported at once (a :class:`~scoring.errors.ConfigErrors` when
    there are several), each naming its key (``params["key"]``: ``indicators.l``...); a
    check that needs another key (the kind needs the column, the ``order`` list of an
    ordered categorical column needs all three) waits while that key is wrong.

    Examples
    --------
    >>> x = pd.DataFrame({"q": ["1", "2"], "d": ["flu", "cold"]})
    >>> load_indicators({"sa": "d"}, x).to_dict()
    {'sa': 'd', 'kind': 'categorical', 'bins': 5, 'l': 2, 't_distance': 'equal', 'order': None}
    >>> load_indicators({"sa": "zip", "l": 1}, x)
    Traceback (most recent call last):
    ...
    scoring.errors.ConfigErrors: indicators.sa 'zip' is not a column of the table (columns: q, d).
    indicators.l must be an integer >= 2, not 1.
    """
    if raw is None:
        return None
    if not isinstance(raw, Mapping):
        raise ConfigError("config.indicators_not_object", key=_KEY, value=quoted_value(raw))
    table = as_table(original)
    checks = ConfigChecks()
    unknown = [key for key in raw if key not in _KEYS]
    if unknown:
        checks.errors.append(
            ConfigError(
                "config.indicators_unknown_keys",
                key=_KEY,
                keys=clip(quoted(unknown), 4 * ECHO_LIMIT),
                allowed=", ".join(_KEYS),
            )
        )
    # The checks in the order their errors are reported.
    sa = checks.run(_indicator_sa, raw.get("sa"), table, qi)
    column = None if sa is None else table.column(sa)
    kind, uniques = None, None
    # A kind that is no kind is wrong whatever the column; the column's values are read
    # only for a valid column and kind.
    given_kind = checks.run(_kind_given, raw.get("kind"), default=False)
    if sa is not None and given_kind is not False:
        kind, uniques = checks.run(_indicator_kind, given_kind, column, sa, default=(None, None))
    bins = checks.run(_indicator_bins, raw.get("bins", DEFAULT_BINS))
    level = checks.run(_indicator_l, raw.get("l", DEFAULT_L))
    distance = checks.run(_indicator_distance, raw.get("t_distance"), kind)
    order = checks.run(_indicator_order, raw.get("order"), default=False)
    if kind == CATEGORICAL and distance == ORDERED and order is not False:
        checks.run(_order_covers, column, sa, order, uniques)
    checks.raise_found()
    return IndicatorConfig(sa, kind, bins, level, distance, order)


def _indicator_sa(sa: Any, table: Table, qi: Sequence[str]) -> str:
    """The indicator column: a column of the table, not a QI (``qi``: empty while the
    configuration's ``qi`` is wrong, when that check waits)."""
    columns = tuple(str(c) for c in table.columns)
    if not isinstance(sa, str) or sa not in columns:
        raise ConfigError(
            "config.indicators_sa_not_column",
            key=f"{_KEY}.sa",
            value=quoted_value(sa),
            columns=clip(", ".join(columns), 4 * ECHO_LIMIT),
        )
    if sa in qi:
        raise ConfigError("config.indicators_sa_is_qi", key=f"{_KEY}.sa", value=quoted_value(sa))
    return sa


def _kind_given(kind: Any) -> str | None:
    """The kind the block gives (``None``: decided by the column's values)."""
    if kind is not None and kind not in (CATEGORICAL, NUMERIC):
        raise ConfigError("config.indicators_kind", key=f"{_KEY}.kind", value=quoted_value(kind))
    return kind


def _indicator_kind(kind: str | None, column, sa: str):
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
    if kind == NUMERIC and not numeric_only:
        bad_rows = np.flatnonzero((present & ~np.isfinite(numbers))[codes])
        if bad_rows.size:
            shown = [clip(v) for v in column.values(bad_rows[:MAX_LISTED])]
            raise ConfigError(
                "config.indicators_not_numeric",
                key=f"{_KEY}.kind",
                column=clip(sa),
                rows=listing("rows_values", (bad_rows + 1).tolist(), shown),
            )
    return kind, uniques


def _present(uniques) -> np.ndarray:
    """Which distinct values are not empty cells."""
    return np.asarray([str(u).strip() != "" for u in uniques], dtype=bool)


def _indicator_bins(bins: Any):
    """A number of bins (at least 2) or increasing finite edges."""
    bins = DEFAULT_BINS if bins is None else bins
    if _is_int(bins) and bins >= 2:
        return int(bins)
    if (
        isinstance(bins, list | tuple)
        and bins
        and all(_is_finite_number(b) for b in bins)
        and all(b < a for b, a in zip(bins, bins[1:], strict=False))
    ):
        return tuple(float(b) for b in bins)
    raise ConfigError("config.indicators_bins", key=f"{_KEY}.bins", value=quoted_value(bins))


def _indicator_l(level: Any) -> int:
    """``l``: an integer of at least 2 (``null``: the default)."""
    level = DEFAULT_L if level is None else level
    if not _is_int(level) or level < 2:
        raise ConfigError("config.indicators_l", key=f"{_KEY}.l", value=quoted_value(level))
    return int(level)


def _indicator_distance(distance: Any, kind: str | None) -> str | None:
    """The distance of T: given, or by the kind (``None`` while the kind is not known)."""
    if distance is None:
        return None if kind is None else (ORDERED if kind == NUMERIC else EQUAL)
    if distance not in (EQUAL, ORDERED):
        raise ConfigError(
            "config.indicators_t_distance", key=f"{_KEY}.t_distance", value=quoted_value(distance)
        )
    return distance


def _indicator_order(order: Any) -> tuple[str, ...] | None:
    """The values of an ordered categorical column in their order (``None``: not given)."""
    if order is None:
        return None
    key = f"{_KEY}.order"
    if not isinstance(order, list | tuple) or not all(isinstance(v, str) for v in order):
        raise ConfigError("config.indicators_order_type", key=key, value=quoted_value(order))
    repeated = sorted({v for v in order if list(order).count(v) > 1})
    if repeated:
        raise ConfigError(
            "config.indicators_order_repeated",
            key=key,
            values=clip(quoted(repeated), 4 * ECHO_LIMIT),
        )
    return tuple(order)


def _order_covers(column, sa: str, order, uniques) -> None:
    """An ordered categorical SA: ``order`` lists every value of the column."""
    if uniques is None:
        uniques = column.factorized()[1]
    values = sorted({str(u).strip() for u in uniques[_present(uniques)]})
    missing = [v for v in values if v not in set(order or ())]
    if missing:
        raise ConfigError(
            "config.indicators_order_missing",
            key=f"{_KEY}.order",
            column=clip(sa),
            values=quoted(missing[:MAX_LISTED]),
            total=len(missing),
        )
