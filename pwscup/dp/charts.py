"""The DP leaderboard's chart, drawn on the server as SVG (no script, no inline style: CSP):
each team's final verified estimate per level, its mean L2 against the level's ε, beside the
paper's baselines computed at the close (BT, BR, IT_X, the uniform prior).

ε runs across on a log scale (the levels are usually decades apart: 0.1, 1, 4); L2 runs up
on a log scale when every value is positive and they span at least a decade, else on a
linear scale from 0. A team is a coloured line through its levels, labelled at its last
point (``pwscup.core.charts.labels``: no overlaps); the reader's own team is orange and
thicker; the baselines are grey, dashed, named in the legend under the chart. Hover values
are each point's ``<title>``; the table of the same values is the text alternative.

The chart takes the leaderboard's own boards (``pwscup.dp.ranking.level_boards``: the same
visibility rule, after the close only, and the same numbers); nothing here reads the database.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from django.utils.translation import gettext as _

from pwscup.core.charts.labels import LABEL_COLUMNS, Label, Mark, TickedPlot, place_labels
from pwscup.core.charts.scales import TitledPoint, inset, line_path, linear, nice_step
from pwscup.core.charts.text import shorten, text_width

FONT = 12
LABEL_FONT = 11
INSET = 16  # px between the frame and the outermost ticks
OWN = "#d9480f"
TEAM_COLOURS = ("#2b6cb0", "#2f855a", "#6b46c1", "#b7791f", "#0f766e", "#9b2c2c", "#1e40af")
BASELINE = "#6b7280"
BASELINE_DASHES = {"BT": "6 3", "BR": "2 3", "prior": "1 4"}
IT_DASH = "8 3 2 3"


@dataclass
class Series:
    name: str
    colour: str
    baseline: bool
    own: bool = False
    dash: str = ""
    team: str = ""  # slug, for tests and styling
    points: list[TitledPoint] = field(default_factory=list)

    @property
    def path(self) -> str:
        return line_path(self.points)

    @property
    def width(self) -> float:
        return 3 if self.own else (1.5 if self.baseline else 2)

    @property
    def radius(self) -> float:
        return 6 if self.own else (3 if self.baseline else 4.5)


@dataclass
class L2Chart(TickedPlot, size=(480, 340), margins=(56, 12, 28, 44)):
    series: list[Series] = field(default_factory=list)
    labels: list[Label] = field(default_factory=list)
    log_y: bool = False
    rows: list[tuple[str, str, str, str]] = field(default_factory=list)  # name, level, ε, L2

    @property
    def teams(self) -> list[Series]:
        return [s for s in self.series if not s.baseline]

    @property
    def baselines(self) -> list[Series]:
        return [s for s in self.series if s.baseline]

    @property
    def drawn(self) -> list[Series]:
        """Baselines first (behind), then the teams, the reader's own last (on top)."""
        return self.baselines + sorted(self.teams, key=lambda s: s.own)

    @property
    def x_title_y(self) -> float:
        return self.height - 8

    @property
    def x_title_at(self) -> float:
        return round((self.left + self.right) / 2, 1)

    @property
    def font_size(self) -> int:
        return FONT

    @property
    def label_font_size(self) -> int:
        return LABEL_FONT


def number(value: float) -> str:
    return f"{value:.4g}"


class _Scale:
    """Values onto pixels, the ticks ``INSET`` px inside ``start``…``end``; on a log scale
    the values' logarithms."""

    def __init__(self, low: float, high: float, start: float, end: float, *, log: bool):
        self.log = log
        self.low, self.high = (math.log10(low), math.log10(high)) if log else (low, high)
        self.start, self.end = inset(start, end, INSET)

    def __call__(self, value: float) -> float:
        at = math.log10(value) if self.log else value
        return linear(at, self.low, self.high, self.start, self.end)


def _y_scale(values: list[float], chart: L2Chart) -> tuple[_Scale, list[float]]:
    """A log scale over whole decades when every value is positive and they span at least
    one; else a linear one from 0 to a nice tick above the largest value."""
    low, high = min(values), max(values)
    if low > 0 and high / low >= 10:
        first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
        ticks = [10.0**k for k in range(first, last + 1)]
        if len(ticks) <= 3:  # a decade or two: 2 and 5 between the powers too
            ticks = [m * t for t in ticks[:-1] for m in (1, 2, 5)] + [ticks[-1]]
        return _Scale(ticks[0], ticks[-1], chart.bottom, chart.top, log=True), ticks
    step = nice_step(high / 4) if high > 0 else 0.25
    top = math.ceil(high / step - 1e-9) * step or step
    ticks = [round(k * step, 12) for k in range(round(top / step) + 1)]
    return _Scale(0.0, top, chart.bottom, chart.top, log=False), ticks


def _tick_label(value: float) -> str:
    return f"{value:g}" if value < 1e5 else f"{value:.0e}"


def _drawn_baselines(board) -> list[dict]:
    """The level's baselines with an L2: BT, BR and the prior, and of the IT_X (one per X,
    up to a dozen) the best one, as one line "best IT_X" (each point names its X)."""
    rows = [row for row in (board.baselines or {}).get("rows", []) if row.get("l2") is not None]
    interactive = [row for row in rows if row["label"].startswith("IT")]
    best = min(interactive, key=lambda row: row["l2"], default=None)
    return [row for row in rows if not row["label"].startswith("IT") or row is best]


def l2_chart(*, boards, own_team_id=None) -> L2Chart | None:
    """The chart of ``boards`` (one per level; rows ``verified`` with ``team``, ``mean_l2``;
    ``baselines["rows"]`` with ``label`` and ``l2``), or None when there is nothing to draw.

    >>> from fractions import Fraction
    >>> from types import SimpleNamespace as NS
    >>> team = NS(pk=1, name="Team A", slug="team-a")
    >>> boards = [NS(level=f"eps-{e}", epsilon=Fraction(e), epsilon_text=str(e),
    ...              verified=[NS(team=team, mean_l2=l2)], baselines={"rows": []})
    ...           for e, l2 in ((1, 50.0), (10, 5.0))]
    >>> chart = l2_chart(boards=boards)
    >>> [s.name for s in chart.series], chart.log_y, len(chart.series[0].points)
    (['Team A'], True, 2)
    """
    chart = L2Chart()
    ordered = sorted(boards, key=lambda board: board.epsilon)
    teams: dict[int, Series] = {}
    baselines: dict[str, Series] = {}
    values: list[tuple[Series, object, float, str]] = []  # (series, board, L2, name)
    for board in ordered:
        for row in board.verified:
            series = teams.get(row.team.pk)
            if series is None:
                own = row.team.pk == own_team_id
                colour = OWN if own else TEAM_COLOURS[len(teams) % len(TEAM_COLOURS)]
                series = Series(row.team.name, colour, False, own=own, team=row.team.slug)
                teams[row.team.pk] = series
            values.append((series, board, float(row.mean_l2), row.team.name))
        for baseline in _drawn_baselines(board):
            label = "IT" if baseline["label"].startswith("IT") else baseline["label"]
            series = baselines.get(label)
            if series is None:
                dash = BASELINE_DASHES.get(label, IT_DASH)
                name = {"prior": _("uniform prior (ε = 0)"), "IT": _("best IT_X")}.get(label, label)
                series = Series(str(name), BASELINE, True, dash=dash, team=label)
                baselines[label] = series
            values.append((series, board, float(baseline["l2"]), baseline["label"]))
    if not values:
        return None
    chart.series = [*teams.values(), *baselines.values()]
    y_scale, y_values = _y_scale([v for _s, _b, v, _n in values], chart)
    chart.log_y = y_scale.log
    chart.y_ticks = [(y_scale(v), _tick_label(v)) for v in y_values]
    chart.fit_left(label for _at, label in chart.y_ticks)
    epsilons = [float(board.epsilon) for board in ordered]
    # Room on the right of the last level for the teams' names (placed there first).
    names = max(
        (text_width(shorten(s.name, LABEL_COLUMNS), font_size=LABEL_FONT) for s in teams.values()),
        default=0,
    )
    room = min(names + 10, (chart.right - chart.left) / 3) if len(epsilons) > 1 else 0
    x_scale = _Scale(min(epsilons), max(epsilons), chart.left, chart.right - room, log=True)
    chart.x_ticks = [(x_scale(float(b.epsilon)), f"ε = {b.epsilon_text}") for b in ordered]
    for series, board, l2, name in values:
        series.points.append(
            TitledPoint(
                x=x_scale(float(board.epsilon)),
                y=y_scale(l2),
                title=f"{name}\nε = {board.epsilon_text} ({board.level})\nL2 = {number(l2)}",
            )
        )
        chart.rows.append((name, board.level, board.epsilon_text, number(l2)))
    frame = chart.frame
    named = sorted(chart.teams, key=lambda s: not s.own)
    chart.labels = place_labels(
        [
            Mark(s.points[-1].x, s.points[-1].y, s.radius, s.name, bold=s.own, colour=s.colour)
            for s in named
        ],
        frame=frame,
        font_size=LABEL_FONT,
    )
    return chart
