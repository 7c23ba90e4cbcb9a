"""What every chart shares: the colours, an axis (what it plots, in plain words then the
code), its scale and a plotted point.

A scale's domain runs from one nice tick to another (0, 0.2, …, 1) around the values, and
the ticks sit ``INSET`` px inside the plot's frame: the extreme marks (and their labels)
never touch the frame, whatever the data: all at 0, all at 1, all equal.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from django.utils.translation import gettext as _

import scoring
from pwscup.core.charts.scales import inset, nice_step
from pwscup.pwscup2015.leaderboards.metric_words import (
    AXIS_WORDS,
    RANKING,
    better_words,
    metric_name,
    ranking_label,
    ranking_words,
)

# Seed 004, Fig. 1 plots utility (corMAE) against safety; the ranking's safety is the
# vertical default when the round has one (always: every round ranks by it).
DEFAULT_X, DEFAULT_Y = "U4", RANKING
POINT = "#2b6cb0"
OWN = "#d9480f"
FAINT = "#9aa5b1"
INK = "#333"
INSET = 16  # px between the frame and the outermost ticks: room for a marker and its label


@dataclass(frozen=True)
class Axis:
    """What an axis plots: a metric of the scores or the ranking's safety (``RANKING``)."""

    key: str
    code: str  # as in a hover text: ``U4``, or "ranking"
    title: str  # plain words, then the code: ``gap between … (U4 corMAE)``
    better: str  # "lower is better" / "higher is better"
    lower_is_better: bool
    floor: float | None = 0.0  # the values' own bounds: every metric is ≥ 0 …
    ceiling: float | None = None  # … and a rate ≤ 1
    name: str = ""  # the column heading of the chart's data table, when not the code

    @property
    def heading(self) -> str:
        return self.name or self.code

    @property
    def label(self) -> str:
        """The title and the better direction on one line."""
        return _("%(title)s · %(better)s") % {"title": self.title, "better": self.better}

    def value(self, row) -> float | None:
        """The row's value on this axis (``row.scores``, ``row.safety`` for the ranking)."""
        if self.key == RANKING:
            return getattr(row, "safety", None)
        return (row.scores or {}).get(self.key)


RATES = frozenset(scoring.ATTACK_METRICS)


def metric_axis(metric: str) -> Axis:
    """``gap between the columns' correlations (U4 corMAE) · lower is better``."""
    lower = scoring.LOWER_IS_BETTER[metric]
    return Axis(
        key=metric,
        code=metric,
        title=_axis_title(str(AXIS_WORDS[metric]), f"{metric} {metric_name(metric)}"),
        better=better_words(lower),
        lower_is_better=lower,
        ceiling=1.0 if metric in RATES else None,
    )


def ranking_axis(*, measure: str, every_attack: bool) -> Axis:
    """``worst-case re-identification rate … (ranking) · lower is better``."""
    code = str(_("ranking"))
    words = ranking_words(measure=measure, every_attack=every_attack)
    return Axis(
        # the data table heads the column as the leaderboard's table does
        name=ranking_label(measure=measure, every_attack=every_attack),
        key=RANKING,
        code=code,
        title=_axis_title(words, code),
        better=better_words(True),
        lower_is_better=True,
        ceiling=1.0,
    )


def _axis_title(words: str, code: str) -> str:
    return _("%(words)s (%(code)s)") % {"words": words, "code": code}


def number(value) -> str:
    """A value in a hover text: integers as they are, others with 4 significant digits."""
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{value:.4g}"


@dataclass(frozen=True)
class Tick:
    at: float  # pixel position along the axis
    label: str


@dataclass(frozen=True)
class Scale:
    """``low``…``high`` (values) onto ``start``…``end`` (pixels, the ticks' span)."""

    low: float
    high: float
    start: float
    end: float
    step: float = 0.0  # between ticks; 0: no ticks of its own (a time axis)

    def __call__(self, value: float) -> float:
        share = (value - self.low) / (self.high - self.low)
        return round(self.start + share * (self.end - self.start), 1)

    def ticks(self) -> list[Tick]:
        if not self.step:
            return []
        count = round((self.high - self.low) / self.step)
        decimals = _decimals(self.step)
        grouped = max(abs(self.low), abs(self.high)) >= 10_000
        values = [round(self.low + k * self.step, decimals + 3) for k in range(count + 1)]
        return [
            Tick(self(v), f"{v:,.{decimals}f}" if grouped else f"{v:.{decimals}f}") for v in values
        ]


def _decimals(step: float) -> int:
    """Decimals that tell the ticks apart: 0.2 → 1, 0.25 → 2, 5 → 0."""
    for decimals in range(0, 12):
        if abs(round(step, decimals) - step) < step * 1e-6:
            return decimals
    return 12


def nice_scale(values, start: float, end: float, *, axis: Axis | None = None, count=5) -> Scale:
    """A scale over ``values`` from one nice tick to another, its ticks ``INSET`` px inside
    ``start``…``end`` (the frame). Equal values get a range around them within the axis's
    own bounds (equal rates: the whole 0…1; all equal to 0 on an axis from 0: 0…1).

    >>> [t.label for t in nice_scale([0.13, 0.61], 0, 100).ticks()]
    ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7']
    >>> s = nice_scale([0, 0], 0, 100, axis=metric_axis("E1")); (s.low, s.high)
    (0.0, 1.0)
    """
    low, high = float(min(values)), float(max(values))
    floor = axis.floor if axis else None
    ceiling = axis.ceiling if axis else None
    if high - low <= 1e-12 * max(1.0, abs(high)) and floor is not None and ceiling is not None:
        low, high = floor, ceiling  # equal rates: the whole scale, from safe to re-identified
    elif high - low <= 1e-12 * max(1.0, abs(high)):
        half = abs(low) * 0.1 or 0.5
        low, high = low - half, high + half
        if floor is not None and low < floor <= high - half:
            low, high = floor, high + (floor - low)
        if ceiling is not None and high > ceiling >= low + half:
            low, high = low - (high - ceiling), ceiling
            if floor is not None:
                low = max(low, floor)
    step = nice_step((high - low) / count)
    first = math.floor(low / step + 1e-9) * step
    last = math.ceil(high / step - 1e-9) * step
    pixel_start, pixel_end = inset(start, end, INSET)
    return Scale(first, last, pixel_start, pixel_end, step)


def plain_scale(values, start: float, end: float) -> Scale:
    """A scale without ticks of its own (a time axis): the values' range, ``INSET`` px inside
    the frame; one value sits in the middle."""
    low, high = float(min(values)), float(max(values))
    if high == low:
        low, high = low - 1, high + 1
    pixel_start, pixel_end = inset(start, end, INSET)
    return Scale(low, high, pixel_start, pixel_end)


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    colour: str
    title: str
    team: str  # slug, for tests and styling
    radius: float = 6
