"""Labels next to a chart's points, placed on the server so that they do not overlap.

A simple deterministic placement (the greedy candidate-position method of cartography):
the points are labelled one after another, most important first (the reader's own team,
then by rank); each label tries positions around its point, nearest first (right, left,
above right, below right, …, then rings further out, with a thin leader line back to the
point), and takes the first whose box lies inside the frame without touching a placed label
or any point. When none is free within about 120 px (dozens of teams on one spot), it takes
the free-est of those positions inside the frame: a label is never on or outside the frame.
The areas are read from a summed-area table of the frame's pixels (``_Coverage``), so a chart
of 300 teams is labelled in a few tens of milliseconds; a chart of a few marks keeps its
boxes instead (``_FewBoxes``), which skips building the table.

Text widths are estimated (``charts.text``) on the wide side, so a box that fits by the
estimate fits on screen.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np

from pwscup.core.charts.scales import Axis
from pwscup.core.charts.text import shorten, text_width

LABEL_COLUMNS = 20  # display columns of a label; a longer name is cut with "…"
GAP = 3  # px between a point and its label
MARGIN = 2  # px between a label and the frame
FAR = 10  # px: a label further than this from its point gets a leader line
LABEL_CLASH = 20  # how much worse a px² over another label is than one over a point
MAX_CANDIDATES = 600  # positions tried per label: the rings out to about 120 px


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


class PlotArea:
    """A chart whose plot lies within its ``left``, ``right``, ``top`` and ``bottom`` (px):
    its size, its middle (where an axis title goes), its frame for ``place_labels``, its
    linear axes (``x_axis``, ``y_axis``) and a left edge that fits the y labels (``fit_left``,
    in the chart's ``font_size``).

    A chart states its size and margins once, as keywords of its class:
    ``class Chart(PlotArea, size=(640, 300), margins=(48, 16, 16, 40))`` is 640 × 300 px
    with its plot 48 px from the left edge, 16 from the right, 16 from the top and 40 from
    the bottom (``width``, ``height``, ``left``, ``right``, ``top``, ``bottom``)."""

    def __init_subclass__(cls, *, size=None, margins=None, **kwargs):
        super().__init_subclass__(**kwargs)
        if size is not None:
            cls.width, cls.height = size
            left, right, top, bottom = margins
            cls.left, cls.right = left, cls.width - right
            cls.top, cls.bottom = top, cls.height - bottom

    def x_axis(self, low: float, high: float) -> Axis:
        """The values ``low`` … ``high`` across the plot, left to right."""
        return Axis(low, high, self.left, self.right)

    def y_axis(self, low: float, high: float) -> Axis:
        """The values ``low`` … ``high`` up the plot, bottom to top."""
        return Axis(low, high, self.bottom, self.top)

    @property
    def x_middle(self) -> float:
        return (self.left + self.right) / 2

    @property
    def y_middle(self) -> float:
        return (self.top + self.bottom) / 2

    @property
    def plot_width(self) -> float:
        return round(self.right - self.left, 1)

    @property
    def plot_height(self) -> float:
        return round(self.bottom - self.top, 1)

    @property
    def frame(self) -> Box:
        return Box(self.left, self.top, self.right, self.bottom)

    def fit_left(self, y_labels) -> None:
        """Move the plot's left edge so that the y axis's tick labels fit beside it (in the
        chart's ``font_size``, 14 px to spare), and never nearer the image's edge than 40 px."""
        widest = max(text_width(label, font_size=self.font_size) for label in y_labels)
        self.left = max(40, math.ceil(widest) + 14)


@dataclass
class TickedPlot(PlotArea):
    """A ``PlotArea`` with its axes' ticks as the charts' templates draw them: ``(px,
    label)`` each (``Axis.ticks``), none until the chart places them."""

    x_ticks: list[tuple[float, str]] = field(default_factory=list)
    y_ticks: list[tuple[float, str]] = field(default_factory=list)


@dataclass(frozen=True)
class Mark:
    """A point to label: where it is, how big, and the name to write beside it."""

    x: float
    y: float
    radius: float
    name: str
    bold: bool = False
    colour: str = "#333"
    key: str = ""  # what the page knows the mark by (a team's slug), carried to its label


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
    key: str = ""  # its mark's


def _directions(distance: float) -> list[tuple[float, float]]:
    """Unit vectors to try at ``distance`` px: the eight compass points near the point
    (right first, as a reader expects), more angles further out."""
    if distance == 0:
        degrees = [0, 180, 45, -45, 135, -135, 90, -90]
    else:
        count = max(8, min(72, round(2 * math.pi * distance / 10)))
        degrees = [k * 360 / count for k in range(count)]
    return [(math.cos(math.radians(d)), math.sin(math.radians(d))) for d in degrees]


def _distances(reach: float) -> list[float]:
    out, step, distance = [0.0], 6.0, 6.0
    while distance < reach:
        out.append(distance)
        distance += step
        step = min(step + 2, 10)
    return out


@dataclass(frozen=True)
class _Candidates:
    """Every position a label may try around its point, nearest first, as arrays: the
    distance beyond the point's edge and the direction (``sin`` > 0: above). At most
    ``MAX_CANDIDATES``: a label that finds no free place that near takes the least crowded
    of them (a leader line joins it to its point), so a crowded chart costs a bounded
    search per label instead of one over the whole frame."""

    distance: np.ndarray
    cos: np.ndarray
    sin: np.ndarray

    @classmethod
    def around(cls, frame: Box) -> _Candidates:
        reach = max(frame.right - frame.left, frame.bottom - frame.top)
        return _candidates_within(reach)

    def boxes(self, mark: Mark, width: float, height: float) -> np.ndarray:
        """The label's box (left, top, right, bottom) at every position, rounded to 0.1 px."""
        reach = mark.radius + GAP + self.distance
        ax, ay = mark.x + reach * self.cos, mark.y - reach * self.sin
        left = np.where(self.cos > 0.3, ax, np.where(self.cos < -0.3, ax - width, ax - width / 2))
        top = np.where(self.sin > 0.3, ay - height, np.where(self.sin < -0.3, ay, ay - height / 2))
        return np.round(np.stack([left, top, left + width, top + height], axis=1), 1)


@functools.lru_cache(maxsize=64)
def _candidates_within(reach: float) -> _Candidates:
    """The positions for a frame whose longer side is ``reach`` px, made once per size (a
    chart's frame is one of a few fixed sizes): every chart of that size shares them, read
    only."""
    rows = [(d, c, s) for d in _distances(reach) for c, s in _directions(d)]
    rows = rows[:MAX_CANDIDATES]
    columns = [np.array(column, dtype=float) for column in zip(*rows, strict=True)]
    for column in columns:
        column.setflags(write=False)
    distance, cos, sin = columns
    return _Candidates(distance=distance, cos=cos, sin=sin)


class _PixelFrame:
    """The frame's pixels: a box covers every pixel it touches, so two boxes that share no
    pixel are at least apart, never overlapping by a fraction of one."""

    def __init__(self, frame: Box) -> None:
        self.x0, self.y0 = math.floor(frame.left), math.floor(frame.top)
        self.width = math.ceil(frame.right) - self.x0 + 1
        self.height = math.ceil(frame.bottom) - self.y0 + 1

    def _edges(self, boxes: np.ndarray) -> tuple[np.ndarray, ...]:
        """Pixel edges (left, top, right, bottom) of ``boxes`` (… × 4), inside the frame."""
        edges = np.concatenate([np.floor(boxes[..., :2]), np.ceil(boxes[..., 2:])], axis=-1)
        edges = edges - (self.x0, self.y0, self.x0, self.y0)
        edges = np.clip(edges, 0, (self.width, self.height, self.width, self.height))
        edges = edges.astype(int)
        return edges[..., 0], edges[..., 1], edges[..., 2], edges[..., 3]


class _Coverage(_PixelFrame):
    """How many boxes (weighted) cover each pixel of the frame, as its summed-area table, so that the
    area a box shares with every box added so far is four lookups (``shared``) and adding a
    box is one outer product (``add``). Hand-written because no maintained
    library offers an incremental summed-area table; it replaces a pairwise box test whose
    cost grew with the square of the teams (seconds per chart at 100 teams)."""

    def __init__(self, frame: Box) -> None:
        super().__init__(frame)
        # table[r, c]: the coverage summed over the pixels above row r and left of column c.
        self.table = np.zeros((self.height + 1, self.width + 1))
        self.columns = np.arange(self.width + 1, dtype=float)
        self.rows = np.arange(self.height + 1, dtype=float)

    def add(self, box: Box, weight: float = 1.0) -> None:
        left, top, right, bottom = (
            int(v) for v in self._edges(np.array([box.left, box.top, box.right, box.bottom]))
        )
        if right <= left or bottom <= top:
            return
        # Only the entries below and right of the box's corner change.
        across = np.clip(self.columns[left:] - left, 0, right - left)
        down = np.clip(self.rows[top:] - top, 0, bottom - top)
        self.table[top:, left:] += np.outer(weight * down, across)

    def add_all(self, boxes: list[Box]) -> None:
        """Add many boxes at once (the points): counted pixel by pixel, then summed once."""
        cover = np.zeros((self.height, self.width))
        if boxes:
            edges = self._edges(np.array([[b.left, b.top, b.right, b.bottom] for b in boxes]))
            for left, top, right, bottom in zip(*edges, strict=True):
                cover[top:bottom, left:right] += 1
        self.table[1:, 1:] += cover.cumsum(axis=0).cumsum(axis=1)

    def shared(self, boxes: np.ndarray) -> np.ndarray:
        """The covered area (pixels × boxes) under each of ``boxes`` (an n × 4 array)."""
        left, top, right, bottom = self._edges(boxes)
        t = self.table
        return t[bottom, right] - t[top, right] - t[bottom, left] + t[top, left]


#: Up to this many marks a chart's coverage is kept as its boxes (``_FewBoxes``), beyond it
#: as the summed-area table (``_Coverage``), whose two sums over every pixel of the frame
#: cost about 0.5 ms a chart whatever it holds (a team's history chart labels one point).
FEW_MARKS = 8


class _FewBoxes(_PixelFrame):
    """The coverage of ``_Coverage`` kept as the boxes' pixel edges and weights: the area a
    box shares with them is one overlap per box, the same numbers for a few boxes without
    the table (the tests hold the two to the same answers)."""

    def __init__(self, frame: Box) -> None:
        super().__init__(frame)
        self.edges = np.zeros((4, 0), dtype=int)
        self.weights = np.zeros(0)

    def add(self, box: Box, weight: float = 1.0) -> None:
        self.add_all([box], weight)

    def add_all(self, boxes: list[Box], weight: float = 1.0) -> None:
        if boxes:
            edges = self._edges(np.array([[b.left, b.top, b.right, b.bottom] for b in boxes]))
            self.edges = np.concatenate([self.edges, np.stack(edges)], axis=1)
            self.weights = np.concatenate([self.weights, np.full(len(boxes), float(weight))])

    def shared(self, boxes: np.ndarray) -> np.ndarray:
        left, top, right, bottom = (edge[:, None] for edge in self._edges(boxes))
        b_left, b_top, b_right, b_bottom = self.edges
        across = np.clip(np.minimum(right, b_right) - np.maximum(left, b_left), 0, None)
        down = np.clip(np.minimum(bottom, b_bottom) - np.maximum(top, b_top), 0, None)
        return (across * down) @ self.weights


def place_labels(marks: list[Mark], *, frame: Box, font_size: float) -> list[Label]:
    """One label per mark, in the order given (the first gets the best place)."""
    height = font_size * 1.25
    candidates = _Candidates.around(frame)
    # One table: the cost of a position is what it covers, a label's pixel counting
    # LABEL_CLASH times a point's (covering another label hides its name; covering a point
    # less so: the label's white halo leaves the point's edge visible). A position is free
    # when it covers nothing.
    cover = _FewBoxes(frame) if len(marks) <= FEW_MARKS else _Coverage(frame)
    cover.add_all(
        [Box(m.x - m.radius, m.y - m.radius, m.x + m.radius, m.y + m.radius) for m in marks]
    )
    labels = []
    for mark in marks:
        text = shorten(mark.name, LABEL_COLUMNS)
        width = min(
            text_width(text, font_size=font_size, bold=mark.bold),
            frame.right - frame.left - 2 * MARGIN,
        )
        box, distance = _free_box(mark, width, height, frame, candidates, cover)
        cover.add(box, LABEL_CLASH)
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
                key=mark.key,
            )
        )
    return labels


def _free_box(mark, width, height, frame, candidates, cover) -> tuple[Box, float]:
    """The first free position, else the least crowded one inside the frame."""
    boxes = candidates.boxes(mark, width, height)
    inside = (
        (boxes[:, 0] >= frame.left + MARGIN)
        & (boxes[:, 2] <= frame.right - MARGIN)
        & (boxes[:, 1] >= frame.top + MARGIN)
        & (boxes[:, 3] <= frame.bottom - MARGIN)
    )
    if not inside.any():  # no position inside the frame at all: pin it inside the frame
        left = min(max(mark.x, frame.left + MARGIN), frame.right - MARGIN - width)
        top = min(max(mark.y, frame.top + MARGIN), frame.bottom - MARGIN - height)
        return Box(left, top, left + width, top + height), math.inf
    cost = np.where(inside, cover.shared(boxes), np.inf)
    chosen = int(np.argmin(cost))  # the first free one (cost 0), else the least crowded
    left, top, right, bottom = (float(v) for v in boxes[chosen])
    return Box(left, top, right, bottom), float(candidates.distance[chosen])
