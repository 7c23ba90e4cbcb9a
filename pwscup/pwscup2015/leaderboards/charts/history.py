"""A team's score history: one small chart per metric over its scored uploads.

Its points are the team's own uploads (no other team's), so they carry no team name; the
latest one is labelled with its value, placed like the scatter's labels inside the frame.
The axes are padded like the scatter's: no point sits on the frame.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from pwscup.core.charts.labels import Label, Mark, PlotArea, place_labels
from pwscup.core.charts.text import text_width
from pwscup.pwscup2015.leaderboards.charts.axes import (
    DEFAULT_X,
    INK,
    POINT,
    Point,
    Tick,
    metric_axis,
    nice_scale,
    number,
    plain_scale,
)

FONT = 12
DEFAULT_HISTORY = (DEFAULT_X, "E3")  # utility and a re-identification rate, as seed 004


@dataclass
class Line(PlotArea, size=(440, 200), margins=(60, 16, 10, 30)):
    metric: str
    label: str  # plain words, the code, the better direction
    path: str = ""
    points: list[Point] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)

    @property
    def font_size(self) -> int:
        return FONT


def history(*, submissions, metrics, tz=None) -> list[Line]:
    """One chart per chosen metric: the team's scored submissions over time (oldest first)."""
    scored = sorted(
        (s for s in submissions if s.status == "finished" and s.scores),
        key=lambda s: (s.created_at, s.pk),
    )
    lines = []
    for metric in metrics:
        marks = [s for s in scored if s.scores.get(metric) is not None]
        if marks:
            lines.append(_line(metric, marks, tz))
    return lines


def _line(metric: str, marks, tz) -> Line:
    axis = metric_axis(metric)
    line = Line(metric, axis.label)
    y_scale = nice_scale([s.scores[metric] for s in marks], line.bottom, line.top, axis=axis)
    line.y_ticks = y_scale.ticks()
    line.left = max(40, math.ceil(max(text_width(t.label, font_size=FONT) for t in line.y_ticks)))
    line.left += 14
    x_scale = plain_scale([s.created_at.timestamp() for s in marks], line.left, line.right)
    ends = sorted({marks[0].created_at, marks[-1].created_at})
    line.x_ticks = [Tick(x_scale(t.timestamp()), _when(t, tz)) for t in ends]
    for s in marks:
        line.points.append(
            Point(
                x=x_scale(s.created_at.timestamp()),
                y=y_scale(s.scores[metric]),
                colour=POINT,
                title=_("%(upload)s, %(when)s\n%(metric)s = %(value)s")
                % {
                    "upload": s.label,
                    "when": _when(s.created_at, tz),
                    "metric": metric,
                    "value": number(s.scores[metric]),
                },
                team="",
                radius=4,
            )
        )
    line.path = "M " + " L ".join(f"{p.x} {p.y}" for p in line.points)
    latest = line.points[-1]
    line.labels = place_labels(
        [Mark(latest.x, latest.y, latest.radius, number(marks[-1].scores[metric]), colour=INK)],
        frame=line.frame,
        font_size=11,
    )
    return line


def chosen_history_metrics(params, metrics) -> list[str]:
    """``?history=U1&history=E3`` among the round's metrics; by default U4 and E3."""
    asked = [m for m in params.getlist("history") if m in metrics]
    return asked or [m for m in DEFAULT_HISTORY if m in metrics]


def _when(moment, tz) -> str:
    local = timezone.localtime(moment, tz) if tz else moment
    return formats.date_format(local, "Y-m-d H:i")
