"""The Data tab's picture of the reader's own data: one small chart per column, a histogram
of a numeric column, the most frequent values of any other.

Only for a reader who may download that table (the Data tab's ``may_download``): a team its
shared original or, in a per-team round, its own sample; an organizer outside the teams the
round's original. It shows counts of the table the reader holds anyway, never a row. The
counts are computed once per version of the data (``sample.data_version``: the original's
sha256, or the team's sample) and kept in the cache; the SVG is drawn from them per request
(its words follow the reader's language).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import pandas as pd
from django.core.cache import cache
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from pwscup.accounts.models import Team
from pwscup.competitions.models import Round
from pwscup.core.charts.text import shorten
from pwscup.pwscup2015.sample import CACHE_SECONDS, data_version, reader_data

BINS = 10  # of a numeric column's histogram
TOP = 8  # most frequent values of another column
NUMERIC_DISTINCT = 12  # a numeric column with fewer distinct values is drawn as values
COLOUR = "#2b6cb0"
WIDTH, HEIGHT = 260, 150
FONT = 11


def column_counts(table: pd.DataFrame) -> list[dict]:
    """Per column, ``{"name", "kind", "bars": [(label, count)], "other", "missing", "rows"}``:
    ``kind`` "numeric" (``BINS`` equal bins from the least to the largest value) or "values"
    (the ``TOP`` most frequent, ``other`` counting the rest).

    >>> frame = pd.DataFrame({"age": [str(a) for a in range(20, 80)], "sex": ["F", "M"] * 30})
    >>> [(c["name"], c["kind"], len(c["bars"])) for c in column_counts(frame)]
    [('age', 'numeric', 10), ('sex', 'values', 2)]
    """
    out = []
    for name in table.columns:
        column = table[name]
        text = column.astype("string").str.strip()
        missing = text.isna() | (text == "")
        present = text[~missing]
        numbers = pd.to_numeric(present, errors="coerce")
        entry = {"name": str(name), "rows": int(len(column)), "missing": int(missing.sum())}
        if len(present) and numbers.notna().all() and numbers.nunique() >= NUMERIC_DISTINCT:
            low, high = float(numbers.min()), float(numbers.max())
            edges = [low + (high - low) * k / BINS for k in range(BINS + 1)]
            counts = pd.cut(numbers, bins=edges, include_lowest=True).value_counts(sort=False)
            entry.update(
                kind="numeric",
                bars=[(_edge(edges[k]), int(c)) for k, c in enumerate(counts.tolist())],
                high=_edge(high),
                other=0,
            )
        else:
            frequent = present.value_counts()
            entry.update(
                kind="values",
                bars=[(str(v), int(c)) for v, c in frequent.head(TOP).items()],
                other=int(frequent.iloc[TOP:].sum()),
            )
        out.append(entry)
    return out


def _edge(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def data_counts(*, round: Round, team: Team | None) -> list[dict]:
    """The reader's table's ``column_counts``, computed once per version of the data. The
    caller has checked that the reader may download the data."""
    version = data_version(round=round, team=team)
    if version is None:
        return []
    digest = hashlib.sha256(version.encode()).hexdigest()[:32]
    key = f"pwscup2015:data-picture:{round.pk}:{digest}"
    found = cache.get(key)
    if found is None:
        table, _config = reader_data(round=round, team=team)
        found = column_counts(table)
        cache.set(key, found, CACHE_SECONDS)
    return found


@dataclass(frozen=True)
class Bar:
    x: float
    y: float
    width: float
    height: float
    label: str  # drawn (maybe shortened)
    title: str  # the hover text: the value or the bin, and its count
    count_x: float = 0.0
    count_y: float = 0.0
    count: str = ""


@dataclass
class ColumnChart:
    name: str
    kind: str
    bars: list[Bar] = field(default_factory=list)
    note: str = ""  # missing cells, other values
    ends: list[tuple[float, str, str]] = field(default_factory=list)  # (x, anchor, text)
    width: int = WIDTH
    height: int = HEIGHT
    baseline: float = HEIGHT - 22
    font_size: int = FONT
    label_x: float = 86.0  # where the values' names end (text-anchor="end")

    @property
    def ends_y(self) -> float:
        return self.baseline + 14


def column_chart(counts: dict) -> ColumnChart:
    """A column's counts drawn: a histogram (vertical bars, the range's ends under it) or the
    frequent values (horizontal bars, the value before and the count after each)."""
    chart = ColumnChart(counts["name"], counts["kind"])
    bars = counts["bars"]
    most = max([c for _label, c in bars] + [1])
    notes = []
    if counts["kind"] == "numeric":
        left, right, top = 8.0, chart.width - 8.0, 10.0
        step = (right - left) / max(len(bars), 1)
        for k, (edge, count) in enumerate(bars):
            height = round(count / most * (chart.baseline - top), 1)
            upper = bars[k + 1][0] if k + 1 < len(bars) else counts["high"]
            chart.bars.append(
                Bar(
                    x=round(left + k * step + 1, 1),
                    y=round(chart.baseline - height, 1),
                    width=round(step - 2, 1),
                    height=height,
                    label="",
                    title=f"{edge} – {upper}: {count}",
                )
            )
        chart.ends = [(left, "start", bars[0][0]), (right, "end", counts["high"])]
    else:
        row = 16
        chart.height = 8 + row * len(bars) + 6
        label_width, count_room = chart.label_x, 40.0
        span = chart.width - label_width - count_room - 8
        for k, (value, count) in enumerate(bars):
            width = round(max(count / most * span, 1), 1)
            y = 8 + k * row
            chart.bars.append(
                Bar(
                    x=label_width + 4,
                    y=y,
                    width=width,
                    height=row - 5,
                    label=shorten(value, 12),
                    title=f"{value}: {count}",
                    count_x=round(label_width + 8 + width, 1),
                    count_y=y + row - 7,
                    count=str(count),
                )
            )
        if counts["other"]:
            # Rows, not values: the column table beside it counts the values.
            notes.append(
                ngettext(
                    "%(n)s row with another value",
                    "%(n)s rows with other values",
                    counts["other"],
                )
                % {"n": counts["other"]}
            )
    if counts["missing"]:
        notes.append(_("empty cells: %(n)s") % {"n": counts["missing"]})
    chart.note = " · ".join(notes)
    return chart


def data_charts(*, round: Round, team: Team | None) -> list[ColumnChart]:
    return [column_chart(c) for c in data_counts(round=round, team=team) if c["bars"]]
