"""Values onto pixels, as every server-drawn chart places its marks and ticks: a linear map
(``linear``), a frame's span drawn in by a margin (``inset``), the step between nice ticks
(``nice_step``), a line through the placed marks (``line_path``; ``TitledPoint``: a mark
with its hover text) and a linear axis with its ticks (``Axis``, a plot's
``PlotArea.x_axis`` / ``y_axis``). Each kind's chart builds its own axes from these (a log
axis maps the values' logarithms)."""

from __future__ import annotations

import math
from dataclasses import dataclass


def linear(value: float, low: float, high: float, start: float, end: float) -> float:
    """``value`` of ``low`` … ``high`` onto the pixels ``start`` … ``end`` (either way round),
    to a tenth of a pixel; a value outside the range at its nearer end, any value of a range
    of one value in the middle.

    >>> linear(0.5, 0, 1, 40, 240), linear(2, 0, 1, 300, 100), linear(7, 7, 7, 0, 10)
    (140.0, 100.0, 5.0)
    """
    if high == low:
        return round((start + end) / 2, 1)
    value = max(low, min(high, float(value)))
    return round(start + (value - low) / (high - low) * (end - start), 1)


@dataclass(frozen=True)
class Axis:
    """The values ``low`` … ``high`` onto the pixels ``start`` … ``end`` (``linear``), and
    its ticks at chosen values, each labelled as a short number.

    >>> y = Axis(0, 1, 300, 100)
    >>> y(0.5), y.ticks((0, 0.25))
    (200.0, [(300.0, '0'), (250.0, '0.25')])
    """

    low: float
    high: float
    start: float
    end: float

    def __call__(self, value: float) -> float:
        return linear(value, self.low, self.high, self.start, self.end)

    def ticks(self, values) -> list[tuple[float, str]]:
        """Each of ``values`` placed, and labelled (``0.25``, ``1``)."""
        return [(self(value), f"{value:g}") for value in values]


def inset(start: float, end: float, by: float) -> tuple[float, float]:
    """The pixels ``start`` … ``end`` drawn in by ``by`` at both ends (either way round): the
    ticks' span inside a frame, so that no mark touches it.

    >>> inset(0, 100, 16), inset(300, 40, 16)
    ((16, 84), (284, 56))
    """
    direction = 1 if end >= start else -1
    return start + direction * by, end - direction * by


def nice_step(raw: float) -> float:
    """The smallest of 1, 2, 2.5, 5 × 10ⁿ at least ``raw``.

    >>> nice_step(0.17), nice_step(0.04), nice_step(3000)
    (0.2, 0.05, 5000)
    """
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


@dataclass(frozen=True)
class TitledPoint:
    """A point of a line (``line_path``) and its hover text (the SVG's ``<title>``)."""

    x: float
    y: float
    title: str


def line_path(points) -> str:
    """An SVG path's ``d`` through ``points`` (each with ``x`` and ``y``), in their order.

    >>> from types import SimpleNamespace as P
    >>> line_path([P(x=48.0, y=138.0), P(x=624.0, y=16.0)])
    'M48.0,138.0 L624.0,16.0'
    """
    return " ".join(f"{'M' if i == 0 else 'L'}{p.x},{p.y}" for i, p in enumerate(points))
