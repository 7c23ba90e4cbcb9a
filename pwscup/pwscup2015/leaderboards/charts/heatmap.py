"""The attack matrix's colours, and why it has no heatmap of its own.

Decision: the matrix page no longer draws an SVG heatmap under its table. The
table's cells are already coloured on the same scale (green 0, safe, to red 1,
re-identified; ``pwscup_tags.heat``), so the heatmap repeated the table, cell for cell, in
text too small to read (11 px in a wide SVG that a phone shrinks further), while the table
is the better reader's object in every respect: real text (selectable, translatable,
enlarged with the page), a screen reader reads it as a table, it scrolls sideways in its
own frame on a phone, and it already carries what the heatmap had (each target's worst
case as the last row) and what it lacked (the latest rate beside the best, the CSV). A
heatmap that showed something new (attackers and targets sorted by rank, say) would still
be the same cells; the one thing the heatmap suggested that the table lacked, which
attack was the strongest on each target, is now marked in the table itself.

What remains here: the colour legend the table lacked, and the mark of each target's
strongest attack (the cell or cells equal to its worst case).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

# Steps of the legend, on the table's own scale (``heat-0`` … ``heat-10``, in tenths).
LEGEND_STEPS = (0, 2, 4, 6, 8, 10)


@dataclass(frozen=True)
class MarkedCell:
    """A matrix cell as the table shows it, with whether it is its target's worst case."""

    best: float | None
    latest: float | None
    count: int
    strongest: bool = False


def marked_grid(grid, worst) -> list[tuple[str, list[MarkedCell]]]:
    """``Matrix.grid()`` with each target's strongest attack marked: the cells whose best
    rate is the target's worst case (``Matrix.worst_cases()``; ties: every such cell). A
    target no attack re-identified at all (worst case 0) has no strongest attack.

    >>> from types import SimpleNamespace as Cell
    >>> grid = [("A", [Cell(best=0.2, latest=0.2, count=1)]),
    ...         ("B", [Cell(best=0.5, latest=0.4, count=2)])]
    >>> [cells[0].strongest for _label, cells in marked_grid(grid, [0.5])]
    [False, True]
    """
    return [
        (
            label,
            [
                MarkedCell(
                    best=cell.best,
                    latest=cell.latest,
                    count=cell.count,
                    strongest=cell.best is not None and bool(top) and cell.best >= top,
                )
                for cell, top in zip(cells, worst, strict=True)
            ],
        )
        for label, cells in grid
    ]


@dataclass(frozen=True)
class LegendStep:
    css: str  # the table's class for this rate
    label: str


def heat_legend() -> list[LegendStep]:
    """The colour scale under the table: 0 (safe) … 1 (re-identified) in its own colours."""
    steps = []
    for tenth in LEGEND_STEPS:
        value = f"{tenth / 10:g}"
        if tenth == 0:
            value = _("%(value)s safe") % {"value": value}
        elif tenth == 10:
            value = _("%(value)s re-identified") % {"value": value}
        steps.append(LegendStep(css=f"heat-{tenth}", label=value))
    return steps
