"""The synthetic round's pictures, drawn on the server as SVG (no script, no inline style:
CSP): each release's ``U_ML`` against the worst attack on it (one point per team), and each
target's ROC curves (built-in and team attacks, the diagonal being chance). The templates
``synthetic/_scatter.html`` and ``synthetic/_roc.html`` draw what these return; hover values
are each mark's ``<title>``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pwscup.core.charts.labels import Label, Mark, PlotArea, TickedPlot, place_labels
from scoring.display import format_figure

# One colour per curve, in order (built-in attacks first); readable on white.
LABEL_FONT = 12  # the points' names, as the chart's other text
PALETTE = ("#d9480f", "#2b6cb0", "#868e96", "#2f9e44", "#9c36b5", "#e67700", "#0c8599", "#c2255c")


@dataclass(frozen=True)
class Point:
    x: float
    y: float
    label: str
    title: str
    passes: bool
    own: bool

    @property
    def radius(self) -> int:
        return 8 if self.own else 6


@dataclass
class Scatter(TickedPlot, size=(560, 340), margins=(52, 20, 16, 40)):
    points: list[Point] = field(default_factory=list)
    gate_y: float | None = None
    gate_label: str = ""
    labels: list[Label] = field(default_factory=list)  # the points' names, none over another
    x_label_y: int = 334  # the x axis's title, under its tick labels
    label_font_size: int = LABEL_FONT


def utility_scatter(rows: list[dict], *, u_ml_min: float, own_team_id=None) -> Scatter | None:
    """``rows``: ``{"team", "worst", "u_ml", "passes"}`` (the release ranking's rows); one
    point per release with both numbers, x = the worst attack's headline (0–1), y = ``U_ML``
    (0 to at least 1.2). None if no point.

    >>> from types import SimpleNamespace as T
    >>> chart = utility_scatter([{"team": T(pk=1, name="A"), "worst": 0.5, "u_ml": 0.6,
    ...                            "passes": False}], u_ml_min=0.8)
    >>> (chart.points[0].x, chart.points[0].y, chart.gate_y)
    (296.0, 158.0, 110.7)
    """
    shown = [r for r in rows if r.get("worst") is not None and r.get("u_ml") is not None]
    if not shown:
        return None
    chart = Scatter()
    top = max(1.2, max(float(r["u_ml"]) for r in shown))
    x_of, y_of = chart.x_axis(0.0, 1.0), chart.y_axis(0.0, top)
    chart.x_ticks = x_of.ticks((0, 0.25, 0.5, 0.75, 1))
    chart.y_ticks = y_of.ticks(v for v in (0, 0.4, 0.8, 1.2) if v <= top)
    chart.gate_y = y_of(u_ml_min)
    chart.gate_label = f"U_ML ≥ {u_ml_min:g}"
    for row in shown:
        team = row["team"]
        chart.points.append(
            Point(
                x=x_of(row["worst"]),
                y=y_of(row["u_ml"]),
                label=team.name,
                title=f"{team.name}: U_ML {format_figure(row['u_ml'])}, "
                f"worst attack {format_figure(row['worst'])}",
                passes=bool(row.get("passes")),
                own=own_team_id is not None and team.pk == own_team_id,
            )
        )
    # Two teams with close scores would write their names over each other (placed beside
    # each point, "Team A" over "Team C"): the core places them apart, as on the other charts.
    chart.labels = place_labels(
        [Mark(p.x, p.y, p.radius, p.label) for p in chart.points],
        frame=chart.frame,
        font_size=LABEL_FONT,
    )
    return chart


@dataclass(frozen=True)
class Curve:
    name: str
    builtin: bool
    colour: str
    swatch: int
    dash: str
    points: str


@dataclass
class Roc(PlotArea, size=(260, 260), margins=(40, 10, 10, 40)):
    target: object
    curves: list[Curve] = field(default_factory=list)
    ticks: list[tuple[float, float, str]] = field(default_factory=list)
    x_label_y: int = 252


def curve_colours(rocs: list[dict]) -> dict[str, int]:
    """One palette index per attacker over every target's curves (built-in attacks first,
    then the teams by name), so that an attacker has the same colour in every chart."""
    builtin = [c["name"] for entry in rocs for c in entry["curves"] if c.get("builtin")]
    teams = sorted({c["name"] for entry in rocs for c in entry["curves"] if not c.get("builtin")})
    names = list(dict.fromkeys(builtin)) + teams
    return {name: k % len(PALETTE) for k, name in enumerate(names)}


def roc_chart(target, curves: list[dict], *, colours: dict[str, int] | None = None) -> Roc:
    """One target's ROC curves (``{"name", "builtin", "fpr", "tpr"}``) as polylines on the
    unit square, FPR across and TPR up; the diagonal is drawn by the template. ``colours``:
    the palette index of each attacker (``curve_colours``), else by order.

    >>> chart = roc_chart(None, [{"name": "dcr", "builtin": True, "fpr": [0, 0.5, 1],
    ...                           "tpr": [0, 1, 1]}])
    >>> chart.curves[0].points
    '40.0,220.0 145.0,10.0 250.0,10.0'
    """
    chart = Roc(target=target)
    x_of, y_of = chart.x_axis(0, 1), chart.y_axis(0, 1)
    chart.ticks = [(x_of(v), y_of(v), f"{v:g}") for v in (0, 0.5, 1)]
    for k, curve in enumerate(curves):
        swatch = (colours or {}).get(curve["name"], k % len(PALETTE))
        xs = [x_of(v) for v in curve.get("fpr", [])]
        ys = [y_of(v) for v in curve.get("tpr", [])]
        chart.curves.append(
            Curve(
                name=curve["name"],
                builtin=bool(curve.get("builtin")),
                colour=PALETTE[swatch],
                swatch=swatch,
                dash="5 3" if curve.get("builtin") else "",
                points=" ".join(f"{x},{y}" for x, y in zip(xs, ys, strict=False)),
            )
        )
    return chart
