"""The team's risk timeline and its releases' groups, drawn on the server as SVG (no script,
no inline style: CSP).

One line per summary (RN_max, RN_mean, RA_max, RA_mean) over the steps 1 … j the team has
scores for, on a 0–1 axis, with the 1/m promise of m-invariance as a dashed line. Hover
values are each point's ``<title>``.

The groups chart (``groups_chart``): per release, how many of its groups could hold a person
(``groups_per_release`` of the per-person table), fewest to most with the mean, and how many
persons the release covers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pwscup.core.charts.labels import TickedPlot
from pwscup.core.charts.scales import TitledPoint, line_path

SERIES = (
    ("RN_max", "#d9480f", ""),
    ("RN_mean", "#d9480f", "6 4"),
    ("RA_max", "#2b6cb0", ""),
    ("RA_mean", "#2b6cb0", "6 4"),
)


@dataclass
class Line:
    metric: str
    colour: str
    dash: str
    path: str
    marks: list[TitledPoint]


@dataclass
class RiskChart(TickedPlot, size=(640, 300), margins=(48, 16, 16, 40)):
    lines: list[Line] = field(default_factory=list)
    promise_y: float = 0.0
    promise_label: str = ""


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
    x_of, y_of = chart.x_axis(min(steps), max(steps)), chart.y_axis(0.0, 1.0)
    chart.x_ticks = [(x_of(s), str(s)) for s in steps]
    chart.y_ticks = y_of.ticks((0, 0.25, 0.5, 0.75, 1))
    chart.promise_y = y_of(1 / m)
    chart.promise_label = f"1/m = 1/{m}"
    for metric, colour, dash in SERIES:
        marks = [
            TitledPoint(
                x_of(p["step"]), y_of(p[metric]), f"{metric} @ {p['step']}: {p[metric]:.4f}"
            )
            for p in points
            if p.get(metric) is not None
        ]
        chart.lines.append(Line(metric, colour, dash, line_path(marks), marks))
    return chart


@dataclass(frozen=True)
class Span:
    """One release's column: the range of groups per person (min … max) and its mean."""

    x: float
    low_y: float
    high_y: float
    mean_y: float
    label: str  # under the axis: the release number
    persons: str  # under it: how many persons the release covers
    title: str


@dataclass
class GroupsChart(TickedPlot, size=(480, 260), margins=(44, 12, 28, 48)):
    spans: list[Span] = field(default_factory=list)
    colour: str = "#2b6cb0"

    @property
    def persons_y(self) -> int:
        return self.bottom + 32


def groups_chart(groups: list[dict]) -> GroupsChart | None:
    """Per release (``pwscup.sequential.selectors.release_groups``), the groups of the release
    that could hold a person: a bar from the fewest to the most, a dot at the mean, on an axis
    from 0; the persons the release covers under each column. None when empty.

    >>> chart = groups_chart([{"step": 1, "persons": 4, "min": 1, "mean": 1.5, "max": 2,
    ...                        "MU": 2, "IL": 0.1}])
    >>> [(s.label, s.persons) for s in chart.spans], [label for _y, label in chart.y_ticks]
    ([('1', '4 persons')], ['0', '1', '2'])
    """
    if not groups:
        return None
    chart = GroupsChart()
    top = max(2, max(g["max"] for g in groups))
    step = max(1, math.ceil(top / 5))
    top = math.ceil(top / step) * step
    y_of = chart.y_axis(0, top)
    chart.y_ticks = [(y_of(v), str(v)) for v in range(0, top + 1, step)]
    width = (chart.right - chart.left) / len(groups)
    for k, g in enumerate(groups):
        persons = ngettext("%(n)d person", "%(n)d persons", g["persons"]) % {"n": g["persons"]}
        title = _(
            "Release %(step)d: %(persons)s; groups that could hold a person: "
            "fewest %(min)d, mean %(mean).2f, most %(max)d"
        ) % {**g, "persons": persons}
        if g.get("MU") is not None:
            title += f"\nMU({g['step']}) = {g['MU']}"
        chart.spans.append(
            Span(
                x=round(chart.left + width * (k + 0.5), 1),
                low_y=y_of(g["min"]),
                high_y=y_of(g["max"]),
                mean_y=y_of(g["mean"]),
                label=str(g["step"]),
                persons=persons,
                title=title,
            )
        )
    return chart
