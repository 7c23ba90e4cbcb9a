"""How a metric's value is written for people: the one display rule of the web pages, the
API's ``scores_text``, the ``pwscup`` client and ``python -m scoring evaluate``.

The JSON keeps the raw numbers (``null`` where a metric has no finite value); this module
only turns them into text, by the metric's kind in :data:`scoring.metrics_info.METRIC_KINDS`:

* ``count`` (U6, S1, L1): an integer, without decimals — ``20``, not ``20.0000``;
* ``rate`` and ``real``: four decimals, so a column lines up and sorts as numbers; a
  nonzero value below 0.001, which four decimals would show with fewer than two
  significant digits or as zero, gets two significant digits instead (``0.000044``), in
  scientific notation only below one in a million (``3.1e-07``): it never reads
  ``0.0000``; a value of a billion or more (U1 or U5 of a table with huge SA values) in
  scientific notation with four decimals (``1.2346e+13``), not a line of digits;
* no value: :data:`INFINITE` for L3 (its ``null`` is ``+∞``, spec indicators A.3: some
  class has fewer than ``l`` values), :data:`UNDEFINED` for every other metric (U2 has no
  value when no cross-tabulation cell is shared). :func:`undefined_note` explains the
  sign in English or Japanese (a page's tooltip and legend, the command lines' legend).

Examples
--------
>>> format_metric("E3", 4.4e-05), format_metric("U6", 20.0), format_metric("L3", None)
('0.000044', '20', '∞')
"""

from __future__ import annotations

import datetime as dt
import math

from scoring.messages import language
from scoring.metrics_info import METRIC_KINDS

DECIMALS = 4
# The kinds of figure of format_figure: scores (4 decimals) and counts (integers).
FIGURE_KINDS = ("score", "count")
UNDEFINED = "–"
INFINITE = "∞"
# The metrics whose null means +infinity rather than "no value".
INFINITE_WHEN_NULL = frozenset({"L3"})
# Below this, fixed notation would need more than eight decimals.
SCIENTIFIC_BELOW = 1e-6
# From this on, fixed notation would print more than ten digits before the point.
SCIENTIFIC_FROM = 1e9

NOTES = {  # the metrics whose no-value sign has a meaning of its own
    "L3": {
        "en": "∞: some equivalence class has fewer than l distinct values, so no c makes "
        "the table recursive (c,l)-diverse",
        "ja": "∞: 値が l 種類未満の同値クラスがあるため、どの c でも再帰的 (c,l)-多様性を満たしません",
    },
    "U2": {
        "en": "–: undefined, no cross-tabulation cell occurs in both tables",
        "ja": "–: 定義されません（両方の表に共通するクロス集計のセルがありません）",
    },
}
_GENERIC_NOTE = {
    "en": "–: no value for this table",
    "ja": "–: この表では値がありません",
}


def format_number(value: float | int, *, decimals: int = DECIMALS) -> str:
    """A real number to ``decimals`` decimals; below 0.001, two significant digits (a
    nonzero value never reads as zero).

    Examples
    --------
    >>> format_number(0.25), format_number(0), format_number(4.4e-05), format_number(3.1e-07)
    ('0.2500', '0.0000', '0.000044', '3.1e-07')
    >>> format_number(12345678901234.5)
    '1.2346e+13'
    """
    value = float(value)
    if math.isnan(value):
        return UNDEFINED
    if math.isinf(value):
        return INFINITE if value > 0 else f"-{INFINITE}"
    if abs(value) >= SCIENTIFIC_FROM:
        return f"{value:.{decimals}e}"
    if value == 0 or abs(value) >= 10 ** (1 - decimals):  # two significant digits or more
        return f"{value:.{decimals}f}"
    if abs(value) < SCIENTIFIC_BELOW:
        return f"{value:.1e}"
    # Two significant digits: 4.4e-05 -> 6 decimals.
    return f"{value:.{1 - math.floor(math.log10(abs(value)))}f}"


def format_figure(value: float | int | None, kind: str = "score") -> str:
    """A figure of a table of scores, totals or rankings, by its kind: the one rule of the
    pages' columns (a column reads with one number of decimals: ``1.0000`` beside ``0.5000``,
    never ``1`` beside ``0.5000``).

    * ``score`` — a score, a rate, an error, a mean, a total, a combined value: 4 decimals by
      :func:`format_number`, an integer too (a total of ``1`` reads ``1.0000``);
    * ``count`` — rows, teams, ranks, a count metric: an integer without decimals (a value
      with a fraction keeps 4 decimals rather than being rounded away).

    ``None`` (no value) reads :data:`UNDEFINED`. Figures are never grouped by thousands (in
    any language), so a column sorts and copies as numbers. An ε is shown as the organizer
    wrote it, not through here.

    Raises
    ------
    ValueError
        For a kind other than ``score`` and ``count``.

    Examples
    --------
    >>> format_figure(1), format_figure(0.5), format_figure(20.0, "count"), format_figure(None)
    ('1.0000', '0.5000', '20', '–')
    """
    if kind not in FIGURE_KINDS:
        raise ValueError(f"unknown kind of figure {kind!r}: expected one of {FIGURE_KINDS}")
    if value is None:
        return UNDEFINED
    if kind == "count" and float(value).is_integer():
        return str(int(value))
    return format_number(value)


def format_cell(value) -> str:
    """A cell of a table sent as plain values (a leaderboard's), as people read it, by what
    the value is: a whole number (``int``: a rank, a count of targets, a count a program
    wrote) by :func:`format_figure`'s ``count``, any other number by its ``score`` (4
    decimals, a total of ``1.0`` too; a JSON ``true`` is a score of 1), ``None``
    :data:`UNDEFINED`, a moment (a ``datetime`` with its offset) as ``2026-12-01 11:44 +09:00``,
    a text as it is (a team's name, a figure a kind already wrote).

    Examples
    --------
    >>> [format_cell(v) for v in (3, 0.9373334348159401, 9.770467999, None, "Team A")]
    ['3', '0.9373', '9.7705', '–', 'Team A']
    """
    if value is None:
        return UNDEFINED
    if isinstance(value, bool):
        return format_figure(value)  # a JSON true or false: a score of 1 or 0, as before
    if isinstance(value, str):
        return str(value)
    if isinstance(value, int):
        return format_figure(value, "count")
    if isinstance(value, float):
        return format_figure(value)
    if isinstance(value, dt.datetime):
        return format_moment(value)
    return str(value)


def format_moment(value: dt.datetime) -> str:
    """A moment as a client prints it: to the minute, with its offset (``+09:00``) when it
    has one.

    Examples
    --------
    >>> format_moment(dt.datetime(2026, 12, 1, 11, 44, 43, tzinfo=dt.timezone(dt.timedelta(hours=9))))
    '2026-12-01 11:44 +09:00'
    """
    offset = value.strftime("%z")
    return f"{value:%Y-%m-%d %H:%M}" + (f" {offset[:3]}:{offset[3:]}" if offset else "")


def format_metric(metric: str, value: float | int | None) -> str:
    """The text of ``metric``'s ``value`` (``None`` is the metric's no-value sign).

    Raises
    ------
    KeyError
        For a metric that is not in :data:`scoring.metrics_info.ALL_METRICS`.

    Examples
    --------
    >>> [format_metric(m, v) for m, v in [("S1", 3), ("S2", 3.5), ("U2", None), ("E1", 0.5)]]
    ['3', '3.5000', '–', '0.5000']
    """
    kind = METRIC_KINDS[metric]
    if value is None:
        return undefined_symbol(metric)
    if kind == "count" and float(value).is_integer():
        return str(int(value))
    return format_number(value)


def undefined_symbol(metric: str) -> str:
    """The sign shown for ``metric`` when it has no value (JSON ``null``)."""
    return INFINITE if metric in INFINITE_WHEN_NULL else UNDEFINED


def undefined_note(metric: str, lang: str | None = "en") -> str:
    """What the no-value sign of ``metric`` means, in ``lang`` (English or Japanese).

    Examples
    --------
    >>> undefined_note("L3")[:40]
    '∞: some equivalence class has fewer than'
    """
    return NOTES.get(metric, _GENERIC_NOTE)[language(lang)]


def legend(metrics, scores: dict, lang: str | None = "en") -> list[str]:
    """The notes of the metrics of ``metrics`` that have no value in ``scores`` (a
    command line prints them under its table)."""
    return [
        f"{metric} {undefined_note(metric, lang)}"
        for metric in metrics
        if metric in scores and scores[metric] is None
    ]
