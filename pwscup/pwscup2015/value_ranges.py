"""A round's range rule (``Pwscup2015Round.value_ranges``), in one place.

The stored value is a JSON object, one entry per column: ``{"age": {"min": 13, "max": 85}}``
(iPWS 2023 and PWSCup 2021: "continuous in range 13 ≤ age ≤ 85"). In such a column an
anonymized value may be any number within the bounds, both included, instead of a value of
the original column; ``scoring.validate_submission`` checks it (``value_ranges=``).
"""

import math

from django.utils.translation import gettext as _


class RangeError(ValueError):
    """The ranges are not a valid object of bounds (the message names the entry at fault)."""


def _number(column: str, key: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise RangeError(
            _("Range of %(column)s: %(key)s must be a number, not %(value)s.")
            % {"column": repr(column)[:80], "key": key, "value": repr(value)[:80]}
        )
    return float(value)


def parse_value_ranges(raw, *, columns=None) -> dict[str, tuple[float, float]]:
    """``{column: (low, high)}`` of a round; raise ``RangeError`` naming the entry at fault.

    With ``columns`` (the round's columns), a range of another column is refused.

    >>> parse_value_ranges({"age": {"min": 13, "max": 85}})
    {'age': (13.0, 85.0)}
    """
    if raw in (None, ""):
        return {}
    if not isinstance(raw, dict):
        raise RangeError(
            _('Value ranges must be an object such as {"age": {"min": 13, "max": 85}}.')
        )
    ranges = {}
    for column, spec in raw.items():
        if columns is not None and column not in columns:
            raise RangeError(
                _("Range of %(column)s: the original table has no such column.")
                % {"column": repr(column)[:80]}
            )
        if not isinstance(spec, dict) or set(spec) != {"min", "max"}:
            raise RangeError(
                _('Range of %(column)s: give both bounds, {"min": …, "max": …}, not %(spec)s.')
                % {"column": repr(column)[:80], "spec": repr(spec)[:80]}
            )
        low = _number(column, "min", spec["min"])
        high = _number(column, "max", spec["max"])
        if low > high:
            raise RangeError(
                _("Range of %(column)s: the lower bound %(low)g is above the upper bound %(high)g.")
                % {"column": repr(column)[:80], "low": low, "high": high}
            )
        ranges[column] = (low, high)
    return ranges


def ranges_text(raw) -> str:
    """The ranges as people read them: ``13 ≤ age ≤ 85; 13 ≤ bmi ≤ 75`` (empty without).

    >>> ranges_text({"age": {"min": 13, "max": 85}, "bmi": {"min": 13, "max": 75.5}})
    '13 ≤ age ≤ 85; 13 ≤ bmi ≤ 75.5'
    """
    try:
        ranges = parse_value_ranges(raw)
    except RangeError:
        return ""
    return "; ".join(f"{low:g} ≤ {column} ≤ {high:g}" for column, (low, high) in ranges.items())
