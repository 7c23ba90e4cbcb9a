"""The leaderboard's scatter (seed 004, Fig. 1): one labelled point per team, a utility
metric across and, by default, the ranking's own safety up.

Every team's point carries its name (``charts.labels`` places the labels so that they do
not overlap). The chart is the same for every viewer, so that it is drawn once per ranking
version and cached for all (a label placement costs milliseconds to seconds at hundreds of
teams): each point and label carries its team's slug (``data-team``), and the page marks the
reader's own team by a class (``static/pwscup.js``: ``[data-own-team]``; its look in
``static/leaderboard.css``). The axes' domains are
padded to nice ticks inside the frame (``charts.axes``), so no point or label sits on the
frame or outside it, whatever the scores.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from pwscup.core.charts.labels import Label, Mark, PlotArea, place_labels
from pwscup.core.charts.text import text_width, wrap
from pwscup.pwscup2015.leaderboards.charts.axes import (
    DEFAULT_X,
    DEFAULT_Y,
    FAINT,
    INK,
    POINT,
    Axis,
    Point,
    Tick,
    metric_axis,
    nice_scale,
    number,
)
from pwscup.pwscup2015.leaderboards.metric_words import RANKING

WIDTH, HEIGHT = 360, 360
FONT = 12  # px: ticks and axis titles
LABEL_FONT = 11  # px: the teams' names
TITLE_LINE = 15  # px between two lines of an axis title
PAD = 8  # px around the drawing


@dataclass
class Scatter(PlotArea, size=(WIDTH, HEIGHT), margins=(60, PAD + 8, 40, 52)):
    x_axis: Axis
    y_axis: Axis
    points: list[Point] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    faint: list[Point] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    x_title: list[str] = field(default_factory=list)  # lines
    y_title: list[str] = field(default_factory=list)
    rows: list[tuple] = field(default_factory=list)  # (rank, team, x, y): the text alternative
    missing: int = 0  # teams without both values
    font_size: int = FONT
    label_font_size: int = LABEL_FONT

    @property
    def x_title_at(self) -> float:
        return (self.left + self.right) / 2

    @property
    def x_title_lines(self) -> list[tuple[float, str]]:
        first = self.bottom + 20 + TITLE_LINE
        return [(first + k * TITLE_LINE, line) for k, line in enumerate(self.x_title)]

    @property
    def y_title_lines(self) -> list[tuple[float, str]]:
        return [(PAD + FONT + k * TITLE_LINE, line) for k, line in enumerate(self.y_title)]


def axis_choices(metrics, ranking: Axis | None) -> list[tuple[str, str]]:
    """The axes a reader may choose: (value, text) with the plain words first."""
    choices = [(ranking.key, ranking.label)] if ranking else []
    return choices + [(m, metric_axis(m).label) for m in metrics]


def chosen_axes(params, metrics, ranking: Axis | None = None) -> tuple[Axis, Axis]:
    """The axes asked for in ``?x=…&y=…`` when they are the round's (a metric, or
    ``ranking`` for the ranking's safety); by default U4 across and the ranking up."""

    def axis(asked, default):
        for key in (asked, default, "E3"):
            if key == RANKING and ranking is not None:
                return ranking
            if key in metrics:
                return metric_axis(key)
        return metric_axis(metrics[0])

    return axis(params.get("x"), DEFAULT_X), axis(params.get("y"), DEFAULT_Y)


def scatter(*, rows, x_axis: Axis, y_axis: Axis, faint=()) -> Scatter:
    """One labelled point per row (its team's ranked submission), in the table's order; the
    same for every viewer (none is drawn apart: the page marks the reader's own team).

    ``rows`` have ``team``, ``rank``, ``scores`` and ``safety`` (the ranking's); ``faint``
    are other uploads as ``(team, row)`` drawn small and grey behind, without labels.
    """
    chart = Scatter(x_axis, y_axis)
    shown = [r for r in rows if _both(r, x_axis, y_axis)]
    chart.missing = len(rows) - len(shown)
    faint = [(team, r) for team, r in faint if _both(r, x_axis, y_axis)]
    xs = [x_axis.value(r) for r in shown] + [x_axis.value(r) for _, r in faint]
    ys = [y_axis.value(r) for r in shown] + [y_axis.value(r) for _, r in faint]
    _layout_titles(chart)
    if not xs:
        return chart
    y_scale = nice_scale(ys, chart.bottom, chart.top, axis=y_axis)
    chart.y_ticks = y_scale.ticks()
    chart.fit_left(t.label for t in chart.y_ticks)
    x_scale = nice_scale(xs, chart.left, chart.right, axis=x_axis)
    chart.x_ticks = x_scale.ticks()
    for team, row in faint:
        chart.faint.append(
            Point(
                x=x_scale(x_axis.value(row)),
                y=y_scale(y_axis.value(row)),
                colour=FAINT,
                title=_title(team.name, row, x_axis, y_axis),
                team=team.slug,
                radius=3,
            )
        )
    for row in shown:
        chart.points.append(
            Point(
                x=x_scale(x_axis.value(row)),
                y=y_scale(y_axis.value(row)),
                colour=POINT,
                title=_title(row.team.name, row, x_axis, y_axis, rank=row.rank),
                team=row.team.slug,
                radius=6,
            )
        )
        chart.rows.append(
            (row.rank, row.team.name, number(x_axis.value(row)), number(y_axis.value(row)))
        )
    chart.labels = place_labels(
        [
            Mark(p.x, p.y, p.radius, row.team.name, colour=INK, key=p.team)
            for p, row in zip(chart.points, shown, strict=True)
        ],
        frame=chart.frame,
        font_size=LABEL_FONT,
    )
    return chart


def _layout_titles(chart: Scatter) -> None:
    """The axis titles in at most two lines each: the vertical one above the plot, read
    across (not turned), the horizontal one under the ticks; the frame makes room."""
    room = WIDTH - 2 * PAD
    chart.y_title = _title_lines(chart.y_axis, room)
    chart.x_title = _title_lines(chart.x_axis, room)
    chart.top = PAD + FONT + TITLE_LINE * (len(chart.y_title) - 1) + 14
    chart.bottom = HEIGHT - PAD - 20 - TITLE_LINE * len(chart.x_title)


def _title_lines(axis: Axis, width: float) -> list[str]:
    """One line if it fits, else the title wrapped, the better direction after its last line
    or on a line of its own."""
    if text_width(axis.label, font_size=FONT) <= width:
        return [axis.label]
    lines = wrap(axis.title, width=width, font_size=FONT)
    last = _("%(title)s · %(better)s") % {"title": lines[-1], "better": axis.better}
    if text_width(last, font_size=FONT) <= width:
        return [*lines[:-1], last]
    return [*lines, axis.better]


def _both(row, x_axis: Axis, y_axis: Axis) -> bool:
    return x_axis.value(row) is not None and y_axis.value(row) is not None


def _title(name, row, x_axis: Axis, y_axis: Axis, rank=None) -> str:
    head = name if rank is None else f"{name} (#{rank})"
    return (
        f"{head}\n{x_axis.code} = {number(x_axis.value(row))}"
        f"\n{y_axis.code} = {number(y_axis.value(row))}"
    )
