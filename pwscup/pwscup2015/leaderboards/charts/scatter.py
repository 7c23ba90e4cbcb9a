"""The leaderboard's utility-vs-safety scatter (seed 004, Fig. 1): one point per team."""

from __future__ import annotations

from dataclasses import dataclass, field

from pwscup.pwscup2015.leaderboards.charts.axes import (
    BOTTOM,
    DEFAULT_X,
    DEFAULT_Y,
    FAINT,
    HEIGHT,
    LEFT,
    OWN,
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
class Scatter:
    x_metric: str
    y_metric: str
    x_label: str
    y_label: str
    points: list[Point] = field(default_factory=list)
    faint: list[Point] = field(default_factory=list)
    x_ticks: list[Tick] = field(default_factory=list)
    y_ticks: list[Tick] = field(default_factory=list)
    missing: int = 0  # teams without both values
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    top: int = TOP
    bottom: int = HEIGHT - BOTTOM

    @property
    def x_label_at(self) -> float:
        return (self.left + self.right) / 2

    @property
    def y_label_at(self) -> float:
        return (self.top + self.bottom) / 2


def chosen_axes(params, metrics) -> tuple[str, str]:
    """The axes asked for in ``?x=…&y=…`` when they are metrics of the round, else U4 vs E3."""
    x, y = params.get("x"), params.get("y")
    return (x if x in metrics else DEFAULT_X), (y if y in metrics else DEFAULT_Y)


def scatter(*, rows, x_metric: str, y_metric: str, own_team_id=None, faint_scores=()) -> Scatter:
    """One point per leaderboard row (its team's representative submission).

    ``faint_scores`` are ``(team, scores)`` of other submissions, drawn faint behind.
    """
    chart = Scatter(x_metric, y_metric, axis_label(x_metric), axis_label(y_metric))
    shown = [r for r in rows if _both(r.scores, x_metric, y_metric)]
    chart.missing = len(rows) - len(shown)
    faint = [(team, s) for team, s in faint_scores if _both(s, x_metric, y_metric)]
    xs = [r.scores[x_metric] for r in shown] + [s[x_metric] for _, s in faint]
    ys = [r.scores[y_metric] for r in shown] + [s[y_metric] for _, s in faint]
    if not xs:
        return chart
    x_scale = _scale(xs, chart.left, chart.right)
    y_scale = _scale(ys, chart.bottom, chart.top)
    chart.x_ticks, chart.y_ticks = x_scale.ticks(), y_scale.ticks()
    for row in shown:
        own = row.team.pk == own_team_id
        chart.points.append(
            Point(
                x=round(x_scale(row.scores[x_metric]), 1),
                y=round(y_scale(row.scores[y_metric]), 1),
                colour=OWN if own else POINT,
                title=_title(row.team.name, row.scores, x_metric, y_metric, rank=row.rank),
                team=row.team.slug,
                own=own,
                radius=8 if own else 6,
            )
        )
    chart.points.sort(key=lambda p: p.own)  # the own team's point drawn last, on top
    for team, scores in faint:
        chart.faint.append(
            Point(
                x=round(x_scale(scores[x_metric]), 1),
                y=round(y_scale(scores[y_metric]), 1),
                colour=FAINT,
                title=_title(team.name, scores, x_metric, y_metric),
                team=team.slug,
                radius=3,
            )
        )
    return chart


def _both(scores: dict, x: str, y: str) -> bool:
    return scores.get(x) is not None and scores.get(y) is not None


def _title(name, scores, x, y, rank=None) -> str:
    head = name if rank is None else f"{name} (#{rank})"
    return f"{head}\n{x} = {_number(scores[x])}\n{y} = {_number(scores[y])}"
