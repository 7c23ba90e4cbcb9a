"""The attack matrix as a heatmap: one cell per attacker and target, coloured by rate."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import wcwidth
from django.utils.translation import gettext as _

from pwscup.pwscup2015.leaderboards.charts.axes import (
    HEAT_STOPS,
    heat_colour,
)
from scoring.display import format_number

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
