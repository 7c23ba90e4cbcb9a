"""Labels next to a chart's points, placed on the server so that they do not overlap.

A simple deterministic placement (the greedy candidate-position method of cartography):
the points are labelled one after another, most important first (the reader's own team,
then by rank); each label tries positions around its point, nearest first (right, left,
above right, below right, …, then rings further out, with a thin leader line back to the
point), and takes the first whose box lies inside the frame without touching a placed label
or any point. When none is free (dozens of teams on one spot), it takes the free-est
position inside the frame: a label is never on or outside the frame.

Text widths are estimated (``charts.text``) on the wide side, so a box that fits by the
estimate fits on screen.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pwscup.pwscup2015.leaderboards.charts.text import shorten, text_width

LABEL_COLUMNS = 20  # display columns of a label; a longer name is cut with "…"
GAP = 3  # px between a point and its label
MARGIN = 2  # px between a label and the frame
FAR = 10  # px: a label further than this from its point gets a leader line
LABEL_CLASH = 20  # how much worse a px² over another label is than one over a point


@dataclass(frozen=True)
class Box:
    left: float
    top: float
    right: float
    bottom: float

    def overlap(self, other: Box) -> float:
        """The area shared with ``other`` (0 when apart)."""
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return width * height if width > 0 and height > 0 else 0.0

    def within(self, frame: Box, margin: float = 0.0) -> bool:
        return (
            self.left >= frame.left + margin
            and self.right <= frame.right - margin
            and self.top >= frame.top + margin
            and self.bottom <= frame.bottom - margin
        )

    def nearest(self, x: float, y: float) -> tuple[float, float]:
        return min(max(x, self.left), self.right), min(max(y, self.top), self.bottom)


@dataclass(frozen=True)
class Mark:
    """A point to label: where it is, how big, and the name to write beside it."""

    x: float
    y: float
    radius: float
    name: str
    bold: bool = False
    colour: str = "#333"


@dataclass(frozen=True)
class Label:
    text: str  # as drawn (maybe cut)
    title: str  # in full (the hover text)
    x: float  # where the text starts (text-anchor="start")
    y: float  # its baseline
    box: Box
    bold: bool
    colour: str
    leader: tuple[float, float, float, float] | None = None  # from the point to the box


def _directions(distance: float) -> list[tuple[float, float]]:
    """Unit vectors to try at ``distance`` px: the eight compass points near the point
    (right first, as a reader expects), more angles further out."""
    if distance == 0:
        degrees = [0, 180, 45, -45, 135, -135, 90, -90]
    else:
        count = max(8, min(72, round(2 * math.pi * distance / 10)))
        degrees = [k * 360 / count for k in range(count)]
    return [(math.cos(math.radians(d)), math.sin(math.radians(d))) for d in degrees]


def _box_at(mark: Mark, distance: float, cos: float, sin: float, width, height) -> Box:
    """The label's box on the side (``cos``, ``sin``) of ``mark`` (sin > 0: above)."""
    reach = mark.radius + GAP + distance
    ax, ay = mark.x + reach * cos, mark.y - reach * sin
    if cos > 0.3:
        left = ax
    elif cos < -0.3:
        left = ax - width
    else:
        left = ax - width / 2
    if sin > 0.3:
        top = ay - height
    elif sin < -0.3:
        top = ay
    else:
        top = ay - height / 2
    return Box(round(left, 1), round(top, 1), round(left + width, 1), round(top + height, 1))


def _distances(frame: Box) -> list[float]:
    reach = max(frame.right - frame.left, frame.bottom - frame.top)
    out, step, distance = [0.0], 6.0, 6.0
    while distance < reach:
        out.append(distance)
        distance += step
        step = min(step + 2, 10)
    return out


def place_labels(marks: list[Mark], *, frame: Box, font_size: float) -> list[Label]:
    """One label per mark, in the order given (the first gets the best place)."""
    height = font_size * 1.25
    points = [Box(m.x - m.radius, m.y - m.radius, m.x + m.radius, m.y + m.radius) for m in marks]
    placed: list[Box] = []
    labels = []
    distances = _distances(frame)
    for mark in marks:
        text = shorten(mark.name, LABEL_COLUMNS)
        width = min(
            text_width(text, font_size=font_size, bold=mark.bold),
            frame.right - frame.left - 2 * MARGIN,
        )
        box, distance = _free_box(mark, width, height, frame, points, placed, distances)
        placed.append(box)
        leader = None
        if distance > FAR:
            to_x, to_y = box.nearest(mark.x, mark.y)
            length = math.hypot(to_x - mark.x, to_y - mark.y) or 1.0
            leader = (
                round(mark.x + (to_x - mark.x) * mark.radius / length, 1),
                round(mark.y + (to_y - mark.y) * mark.radius / length, 1),
                round(to_x, 1),
                round(to_y, 1),
            )
        labels.append(
            Label(
                text=text,
                title=mark.name,
                x=box.left,
                y=round(box.bottom - font_size * 0.3, 1),
                box=box,
                bold=mark.bold,
                colour=mark.colour,
                leader=leader,
            )
        )
    return labels


def _free_box(mark, width, height, frame, points, placed, distances) -> tuple[Box, float]:
    """The first free position, else the least crowded one inside the frame."""

    def candidates():
        for distance in distances:
            for cos, sin in _directions(distance):
                box = _box_at(mark, distance, cos, sin, width, height)
                if box.within(frame, MARGIN):
                    yield box, distance

    for box, distance in candidates():
        if not any(box.overlap(other) for other in placed) and not any(
            box.overlap(point) for point in points
        ):
            return box, distance
    best, best_cost, best_distance = None, math.inf, 0.0
    for box, distance in candidates():
        # Covering another label hides its name; covering a point less so (the label's
        # white halo leaves the point's edge visible): a clash of labels costs more.
        cost = LABEL_CLASH * sum(box.overlap(other) for other in placed) + sum(
            box.overlap(point) for point in points
        )
        if cost < best_cost:
            best, best_cost, best_distance = box, cost, distance
    if best is None:  # no position inside the frame at all: pin it inside the frame
        left = min(max(mark.x, frame.left + MARGIN), frame.right - MARGIN - width)
        top = min(max(mark.y, frame.top + MARGIN), frame.bottom - MARGIN - height)
        best = Box(left, top, left + width, top + height)
        best_distance = math.inf
    return best, best_distance
