"""The team's risk timeline, drawn on the server as SVG (no script, no inline style: CSP).

One line per summary (RN_max, RN_mean, RA_max, RA_mean) over the steps 1 … j the team has
scores for, on a 0–1 axis, with the 1/m promise of m-invariance as a dashed line. Hover
values are each point's ``<title>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 48, 16, 16, 40
SERIES = (
    ("RN_max", "#d9480f", ""),
    ("RN_mean", "#d9480f", "6 4"),
    ("RA_max", "#2b6cb0", ""),
    ("RA_mean", "#2b6cb0", "6 4"),
)


@dataclass(frozen=True)
class Mark:
    x: float
    y: float
    title: str


@dataclass
class Line:
    metric: str
    colour: str
    dash: str
    path: str
    marks: list[Mark]


@dataclass
class RiskChart:
    lines: list[Line] = field(default_factory=list)
    x_ticks: list[tuple[float, str]] = field(default_factory=list)
    y_ticks: list[tuple[float, str]] = field(default_factory=list)
    promise_y: float = 0.0
    promise_label: str = ""
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def legend_y(self) -> int:
        return self.height - 8


def risk_chart(points: list[dict], *, m: int) -> RiskChart | None:
    """The chart of ``points`` (``{"step": j, "RN_max": …, …}`` by step), or None if empty.

    >>> chart = risk_chart([{"step": 1, "RN_max": 0.5, "RN_mean": 0.4, "RA_max": 0.5,
    ...                      "RA_mean": 0.4}, {"step": 2, "RN_max": 1.0, "RN_mean": 0.5,
    ...                      "RA_max": 0.5, "RA_mean": 0.45}], m=2)
    >>> [line.metric for line in chart.lines], chart.lines[0].path
    (['RN_max', 'RN_mean', 'RA_max', 'RA_mean'], 'M48.0,138.0 L624.0,16.0')
    """
    if not points:
        return None
    chart = RiskChart()
    steps = [p["step"] for p in points]
    low, high = min(steps), max(steps)

    def x_of(step: int) -> float:
        if high == low:
            return round((chart.left + chart.right) / 2, 1)
        return round(chart.left + (step - low) / (high - low) * (chart.right - chart.left), 1)

    def y_of(value: float) -> float:
        value = max(0.0, min(1.0, float(value)))
        return round(chart.bottom - value * (chart.bottom - chart.top), 1)

    chart.x_ticks = [(x_of(s), str(s)) for s in steps]
    chart.y_ticks = [(y_of(v), f"{v:g}") for v in (0, 0.25, 0.5, 0.75, 1)]
    chart.promise_y = y_of(1 / m)
    chart.promise_label = f"1/m = 1/{m}"
    for metric, colour, dash in SERIES:
        marks = [
            Mark(x_of(p["step"]), y_of(p[metric]), f"{metric} @ {p['step']}: {p[metric]:.4f}")
            for p in points
            if p.get(metric) is not None
        ]
        path = " ".join(f"{'M' if i == 0 else 'L'}{mk.x},{mk.y}" for i, mk in enumerate(marks))
        chart.lines.append(Line(metric, colour, dash, path, marks))
    return chart
