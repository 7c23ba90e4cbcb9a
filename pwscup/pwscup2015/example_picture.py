"""The Rules tab's worked example drawn (server-side SVG, no script, no inline style: CSP).

Two small pictures built from ``explanations``' example (the numbers the tab's tables show,
which a test compares with the scorer): the four people in the plane of their two published
numbers, SA1 across and SA2 up, each original (blue, numbered as the tables' rows) joined by
an arrow to where the copy puts it (orange: a pair of look-alikes lands on one point, their
average); and each attack's rate on the original as is and on the copy, as paired bars.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.translation import gettext as _

import scoring
from pwscup.core.charts.labels import TickedPlot
from pwscup.pwscup2015 import explanations

ORIGINAL, COPY, INK = "#2b6cb0", "#d9480f", "#333"
PLANE_SIZE = 300
PAD, AXIS = 22, 40  # px: around the drawing; for the ticks


@dataclass(frozen=True)
class Move:
    row: int  # 1-based, as the tables number the rows
    x: float
    y: float
    to_x: float
    to_y: float
    title: str


@dataclass
class Plane(TickedPlot, size=(PLANE_SIZE, PLANE_SIZE), margins=(AXIS, PAD, PAD, AXIS)):
    moves: list[Move] = field(default_factory=list)
    copies: list[tuple[float, float, str]] = field(default_factory=list)  # (x, y, title)


@dataclass(frozen=True)
class Bar:
    metric: str
    y: float
    before: float  # px
    after: float  # px
    before_text: str
    after_text: str
    left: int
    bar: int

    @property
    def after_y(self) -> float:
        return self.y + self.bar

    @property
    def before_end(self) -> float:
        return self.left + self.before + 4

    @property
    def after_end(self) -> float:
        return self.left + self.after + 4


@dataclass
class Rates:
    bars: list[Bar] = field(default_factory=list)
    width: int = 300
    height: int = 0
    left: int = 56
    right: int = 300 - 40
    bar: int = 9

    @property
    def span(self) -> int:
        return self.right - self.left

    @property
    def label_x(self) -> int:
        return self.left - 8


def _number(value) -> str:
    return f"{value:g}"


def plane() -> Plane:
    """The four people's (SA1, SA2) before and after the copy, on one 0 … 500 scale."""
    columns = explanations.EXAMPLE_COLUMNS
    sa1, sa2 = columns.index("SA1"), columns.index("SA2")
    picture = Plane()
    x_of, y_of = picture.x_axis(0.0, 500.0), picture.y_axis(0.0, 500.0)
    ticks = [0, 100, 200, 300, 400, 500]
    picture.x_ticks = [(x_of(v), str(v)) for v in ticks]
    picture.y_ticks = [(y_of(v), str(v)) for v in ticks]
    seen = set()
    for row, (before, after) in enumerate(
        zip(explanations.EXAMPLE_ORIGINAL, explanations.EXAMPLE_COPY, strict=True), start=1
    ):
        b = (float(before[sa1]), float(before[sa2]))
        a = (float(after[sa1]), float(after[sa2]))
        picture.moves.append(
            Move(
                row=row,
                x=x_of(b[0]),
                y=y_of(b[1]),
                to_x=x_of(a[0]),
                to_y=y_of(a[1]),
                title=_("Row %(row)d: (SA1, SA2) = (%(b1)s, %(b2)s) → (%(a1)s, %(a2)s)")
                % {
                    "row": row,
                    "b1": _number(b[0]),
                    "b2": _number(b[1]),
                    "a1": _number(a[0]),
                    "a2": _number(a[1]),
                },
            )
        )
        if a not in seen:
            seen.add(a)
            picture.copies.append((x_of(a[0]), y_of(a[1]), f"({_number(a[0])}, {_number(a[1])})"))
    return picture


def rates() -> Rates:
    """Each attack's rate (0 … 1) on the original as is and on the copy."""
    picture = Rates()
    rows = [r for r in explanations.EXAMPLE_SCORES if r[0] in scoring.ATTACK_METRICS]
    step = 2 * picture.bar + 12
    for k, (metric, before, after) in enumerate(rows):
        picture.bars.append(
            Bar(
                metric=metric,
                y=8 + k * step,
                before=round(before * picture.span, 1),
                after=round(after * picture.span, 1),
                before_text=_number(before),
                after_text=_number(after),
                left=picture.left,
                bar=picture.bar,
            )
        )
    picture.height = 8 + len(rows) * step + 18
    return picture
