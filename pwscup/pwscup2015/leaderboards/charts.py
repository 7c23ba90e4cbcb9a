"""Charts drawn on the server as SVG: the leaderboard's utility-vs-safety scatter, a team's
score history and the attack matrix heatmap.

No charting library and no script: the page's Content-Security-Policy allows no inline
script or style, and an SVG drawn here needs neither. Colours are SVG presentation
attributes (``fill``), hover values are each mark's ``<title>`` (the browser's tooltip,
also read by screen readers), and the axes are chosen with a plain GET form.

Every chart takes the rows the page's table shows (the same selectors, so the same
visibility rules and the same numbers); nothing here reads the database.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import wcwidth
from django.utils import formats, timezone
from django.utils.translation import gettext as _

import scoring
from scoring.display import format_number

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


def axis_label(metric: str) -> str:
    arrow = "↓" if scoring.LOWER_IS_BETTER[metric] else "↑"
    return f"{metric} {scoring.METRIC_NAMES[metric]} ({arrow})"


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


# --- a team's score history --------------------------------------------------------------


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


# --- the attack matrix ---------------------------------------------------------------------


# The heatmap's text is measured before the browser draws it, to size the label column and
# the legend so that nothing is clipped by the SVG's edge. Widths are estimated from terminal
# display columns (wcwidth: a CJK character takes two, a Latin one one) times a share of the
# font size a little above the average Latin glyph, so that the estimate errs on the wide side.
HEAT_FONT = 11  # px, the SVG's font-size
EM_PER_COLUMN = 0.62
LABEL_COLUMNS = 44  # longer row labels (team names) are cut, in full in their hover title
GAP = 6  # px between a label and the cells


def text_width(text: str, *, font_size: float = HEAT_FONT, bold: bool = False) -> float:
    """Estimated width in px of ``text`` drawn in a sans-serif font of ``font_size`` px.

    >>> text_width("abcd"), text_width("攻撃")
    (27.28, 27.28)
    """
    columns = wcwidth.width(text, control_codes="ignore")
    return round(columns * EM_PER_COLUMN * font_size * (1.08 if bold else 1), 2)


def shorten(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` display columns, with "…" when cut.

    >>> shorten("Team A", 12), shorten("組み込み攻撃キット", 7)
    ('Team A', '組み込…')
    """
    if wcwidth.width(text, control_codes="ignore") <= columns:
        return text
    return wcwidth.clip(text, 0, columns - 1, control_codes="ignore").rstrip() + "…"


@dataclass(frozen=True)
class HeatCell:
    x: float
    y: float
    colour: str
    title: str
    text: str
    empty: bool
    text_x: float
    text_y: float


@dataclass(frozen=True)
class HeatText:
    x: float  # the anchor
    y: float
    text: str  # as drawn (maybe shortened)
    title: str  # in full, the hover text
    width: float  # estimated, px


@dataclass
class Heatmap:
    columns: list[HeatText]  # the targets' names, centred over their column
    rows: list[HeatText]  # the attackers' labels, right-aligned at ``label_x``
    cells: list[HeatCell]
    width: int
    height: int
    cell_width: int
    cell_height: int
    label_x: float
    legend_x: float  # the colour bar's left edge
    legend_y: float
    legend_width: float
    legend_label: str  # "rate", right-aligned at ``label_x``
    legend_low: str  # "0 (safe)", under the bar's left end
    legend_high: str  # "1 (re-identified)", under its right end
    legend_stops: list[tuple[str, str]] = field(default_factory=list)  # (offset %, colour)

    @property
    def font_size(self) -> int:
        return HEAT_FONT

    @property
    def legend_mid_x(self) -> float:
        return self.legend_x + self.legend_width / 2

    @property
    def legend_end_x(self) -> float:
        return self.legend_x + self.legend_width


def heatmap(*, targets, grid, worst) -> Heatmap:
    """Attackers × targets coloured by the best rate, plus each target's worst case.

    ``grid`` is ``[(attacker label, [Cell, …]), …]`` and ``worst`` the worst case per
    target, as the matrix table shows them (``Matrix.grid()``, ``Matrix.worst_cases()``).
    The label column is as wide as its longest label and the legend as wide as its texts,
    in any language and for any number of targets.
    """
    cell_w, cell_h, head_h = 72, 28, 40
    labels = [label for label, _ in grid] + [str(_("Worst case"))]
    values = [[c.best for c in cells] for _, cells in grid] + [list(worst)]
    shown = [shorten(label, LABEL_COLUMNS) for label in labels]
    legend_label = str(_("rate"))
    # Not inside f-strings: xgettext (makemessages) does not read f-strings.
    safe, reidentified = _("(safe)"), _("(re-identified)")
    legend_low, legend_high = f"0 {safe}", f"1 {reidentified}"
    label_w = math.ceil(
        max(
            [text_width(s) for s in shown[:-1]]
            + [text_width(shown[-1], bold=True), text_width(legend_label), 40]
        )
        + 2 * GAP
    )
    # The bar's end texts sit under its ends and "0.5" in its middle: wide enough for all three.
    ends = max(text_width(legend_low), text_width(legend_high))
    legend_w = max(200, math.ceil(2 * ends + text_width("0.5") + 4 * GAP))
    width = max(label_w + cell_w * max(len(targets), 1), label_w + legend_w) + 8
    height = head_h + cell_h * len(labels) + 56
    column_names = [t.team.name for t in targets]
    map_ = Heatmap(
        columns=[
            HeatText(
                x=label_w + cell_w * (k + 0.5),
                y=28,
                text=shorten(name, math.floor((cell_w - 4) / (EM_PER_COLUMN * HEAT_FONT))),
                title=name,
                width=text_width(name),
            )
            for k, name in enumerate(column_names)
        ],
        rows=[
            HeatText(
                x=label_w - GAP,
                y=head_h + cell_h * (k + 0.5),
                text=text,
                title=label,
                width=text_width(text, bold=k == len(labels) - 1),
            )
            for k, (label, text) in enumerate(zip(labels, shown, strict=True))
        ],
        cells=[],
        width=width,
        height=height,
        cell_width=cell_w - 2,
        cell_height=cell_h - 2,
        label_x=label_w - GAP,
        legend_x=label_w,
        legend_y=head_h + cell_h * len(labels) + 16,
        legend_width=legend_w,
        legend_label=legend_label,
        legend_low=legend_low,
        legend_high=legend_high,
    )
    for row, (label, rates) in enumerate(zip(labels, values, strict=True)):
        for column, (target, rate) in enumerate(zip(targets, rates, strict=True)):
            empty = rate is None
            x, y = label_w + cell_w * column + 1, head_h + cell_h * row + 1
            map_.cells.append(
                HeatCell(
                    x=x,
                    y=y,
                    text_x=x + (cell_w - 2) / 2,
                    text_y=y + cell_h / 2 + 3,
                    colour="#eef0f2" if empty else heat_colour(rate),
                    title=f"{label} → {target.team.name}: "
                    + ("–" if empty else format_number(rate)),
                    text="–" if empty else f"{rate:.3f}",
                    empty=empty,
                )
            )
    map_.legend_stops = [(f"{int(at * 100)}%", heat_colour(at)) for at, _rgb in HEAT_STOPS]
    return map_
