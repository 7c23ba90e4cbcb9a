"""What every chart shares: the plot area, the colours (a rate's heat colour included),
the axes' scales with their ticks, a plotted point and a metric's axis label."""

from __future__ import annotations

import math
from dataclasses import dataclass

import scoring

# Seed 004, Fig. 1: utility (corMAE) against safety (identify.sort).
DEFAULT_X, DEFAULT_Y = "U4", "E3"
WIDTH, HEIGHT = 640, 400
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 16, 48
POINT = "#2b6cb0"
OWN = "#d9480f"
FAINT = "#9aa5b1"
# Heat scale of a re-identification rate: 0 green (safe for the target), 0.5 yellow, 1 red.
HEAT_STOPS = ((0.0, (26, 152, 80)), (0.5, (254, 224, 139)), (1.0, (215, 48, 39)))


def heat_colour(rate: float) -> str:
    """``#rrggbb`` of a rate on the heat scale.

    >>> heat_colour(0.0), heat_colour(0.5), heat_colour(1.0)
    ('#1a9850', '#fee08b', '#d73027')
    """
    rate = max(0.0, min(1.0, float(rate)))
    for (low, a), (high, b) in zip(HEAT_STOPS, HEAT_STOPS[1:], strict=False):
        if rate <= high:
            share = (rate - low) / (high - low)
            rgb = [round(x + (y - x) * share) for x, y in zip(a, b, strict=True)]
            return "#" + "".join(f"{c:02x}" for c in rgb)
    return "#d73027"  # pragma: no cover - rate is clipped to 1


def _number(value) -> str:
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return f"{value:.4g}"


@dataclass(frozen=True)
class Tick:
    at: float  # pixel position along the axis
    label: str


@dataclass(frozen=True)
class Scale:
    low: float
    high: float
    start: float  # pixels
    end: float

    def __call__(self, value: float) -> float:
        return self.start + (value - self.low) / (self.high - self.low) * (self.end - self.start)

    def ticks(self, count: int = 5) -> list[Tick]:
        step = _nice_step((self.high - self.low) / count)
        first = math.ceil(self.low / step) * step
        values = [first + k * step for k in range(count + 2) if first + k * step <= self.high]
        return [Tick(round(self(v), 1), f"{v:.6g}") for v in values]


def _nice_step(raw: float) -> float:
    power = 10 ** math.floor(math.log10(raw))
    return next(m * power for m in (1, 2, 2.5, 5, 10) if m * power >= raw)


def _scale(values: list[float], start: float, end: float) -> Scale:
    low, high = min(values), max(values)
    pad = (high - low) * 0.05 or abs(low) * 0.1 or 0.5
    return Scale(low - pad, high + pad, start, end)


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    colour: str
    title: str
    team: str  # slug, for tests and styling
    own: bool = False
    radius: float = 6


def axis_label(metric: str) -> str:
    arrow = "↓" if scoring.LOWER_IS_BETTER[metric] else "↑"
    return f"{metric} {scoring.METRIC_NAMES[metric]} ({arrow})"
