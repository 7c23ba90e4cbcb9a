"""A team's score history: one line per metric over its submissions."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from pwscup.pwscup2015.leaderboards.charts.axes import (
    BOTTOM,
    DEFAULT_X,
    DEFAULT_Y,
    LEFT,
    POINT,
    RIGHT,
    TOP,
    WIDTH,
    Point,
    Tick,
    _number,
    _scale,
    axis_label,
)


@dataclass
class Line:
    metric: str
    label: str
    path: str
    points: list[Point]
    y_ticks: list[Tick]
    x_ticks: list[Tick]
    width: int = WIDTH
    height: int = 220
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = 220 - BOTTOM + 8


def history(*, submissions, metrics, tz=None) -> list[Line]:
    """One chart per chosen metric: the team's scored submissions over time (oldest first)."""
    scored = sorted(
        (s for s in submissions if s.status == "finished" and s.scores),
        key=lambda s: (s.created_at, s.pk),
    )
    lines = []
    for metric in metrics:
        marks = [s for s in scored if s.scores.get(metric) is not None]
        if not marks:
            continue
        line = Line(metric, axis_label(metric), "", [], [], [])
        times = [s.created_at.timestamp() for s in marks]
        x_scale = _scale(times, line.left, line.right)
        y_scale = _scale([s.scores[metric] for s in marks], line.bottom, line.top)
        line.y_ticks = y_scale.ticks(4)
        ends = {marks[0].created_at, marks[-1].created_at}
        line.x_ticks = [Tick(round(x_scale(t.timestamp()), 1), _when(t, tz)) for t in sorted(ends)]
        for s in marks:
            line.points.append(
                Point(
                    x=round(x_scale(s.created_at.timestamp()), 1),
                    y=round(y_scale(s.scores[metric]), 1),
                    colour=POINT,
                    title=_("%(upload)s, %(when)s\n%(metric)s = %(value)s")
                    % {
                        "upload": s.label,
                        "when": _when(s.created_at, tz),
                        "metric": metric,
                        "value": _number(s.scores[metric]),
                    },
                    team="",
                    radius=4,
                )
            )
        line.path = "M " + " L ".join(f"{p.x} {p.y}" for p in line.points)
        lines.append(line)
    return lines


def chosen_history_metrics(params, metrics) -> list[str]:
    """``?history=U1&history=E3`` among the round's metrics; by default U4 and E3."""
    asked = [m for m in params.getlist("history") if m in metrics]
    return asked or [m for m in (DEFAULT_X, DEFAULT_Y) if m in metrics]


def _when(moment, tz) -> str:
    local = timezone.localtime(moment, tz) if tz else moment
    return formats.date_format(local, "Y-m-d H:i")
