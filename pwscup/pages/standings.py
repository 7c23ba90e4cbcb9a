"""The competition's standings page (every division, or one) and its CSV (``pwscup.competitions.standings``: the
settings and the table), for everyone who sees the competition: only published rounds give
rows, so the page tells nothing the rounds' own pages do not."""

import unicodedata
from dataclasses import dataclass

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _

from pwscup.accounts.selectors import competitions_for_user
from pwscup.competitions.selectors import user_is_organizer
from pwscup.competitions.standings import (
    StandingsTable,
    standings_csv,
    standings_of,
    standings_settings,
    standings_table,
    standings_tables,
)
from pwscup.core.exports import csv_response
from scoring.display import format_figure

# Drawn at about its own size on a phone (380 units in a 350-pixel card), kept from growing on
# a wide screen by pwscup.css (.standings-chart svg). Right of the longest bar, its value's
# label: DIGIT units a character at the chart's 12-unit font (a digit of sans-serif is about
# 0.55 em), after a gap of 4; the bars are scaled so that the longest label ends inside.
BAR_HEIGHT, GAP, LEFT, WIDTH, DIGIT = 18, 6, 130, 380, 7


# A team's name left of its bar: at most this many columns, a wide (Japanese) letter taking
# two, as wide as about two ASCII letters at the chart's font.
NAME_COLUMNS = 18


def _columns(letter: str) -> int:
    return 2 if unicodedata.east_asian_width(letter) in "WF" else 1


def short_name(name: str) -> str:
    """``name`` as the chart writes it: whole within ``NAME_COLUMNS`` columns, else cut to
    one column less and "…" (``チームB 情報科学…``): counted by letters, a Japanese name
    twice as wide as its count began off the picture."""
    if sum(_columns(letter) for letter in name) <= NAME_COLUMNS:
        return name
    kept, used = [], 0
    for letter in name:
        used += _columns(letter)
        if used > NAME_COLUMNS - 1:
            break
        kept.append(letter)
    return "".join(kept) + "…"


@dataclass(frozen=True)
class Bar:
    y: int
    width: float
    name: str
    label: str
    rank: int


def standings_chart(table: StandingsTable) -> dict | None:
    """Horizontal bars of the combined values (a server-drawn SVG, no script: the table
    under it holds the same values), or ``None`` when there is nothing to draw (pending,
    or no team with a combined value)."""
    if table.pending:
        return None
    ranked = [row for row in table.rows if row.value is not None]
    if not ranked:
        return None
    top = max(abs(row.value) for row in ranked) or 1.0
    labels = [format_figure(row.value) for row in ranked]
    plot = WIDTH - LEFT - 4 - DIGIT * max(len(label) for label in labels)
    bars = [
        Bar(
            y=index * (BAR_HEIGHT + GAP),
            width=round(max(abs(row.value) / top * plot, 1.0), 1),
            name=short_name(row.team.name),
            label=label,
            rank=row.rank,
        )
        for index, (row, label) in enumerate(zip(ranked, labels, strict=True))
    ]
    return {
        "bars": bars,
        "width": WIDTH,
        "height": len(bars) * (BAR_HEIGHT + GAP) + 24,
        "left": LEFT,
        "bar_height": BAR_HEIGHT,
        "axis_y": len(bars) * (BAR_HEIGHT + GAP) + 16,
        "direction": _("higher is better") if table.higher_is_better else _("lower is better"),
    }


def _competition(request, competition_slug):
    return get_object_or_404(competitions_for_user(user=request.user), slug=competition_slug)


def _shown(division, table, *, csv_url: str) -> dict:
    return {
        "division": division,
        "csv_url": csv_url,
        "table": table,
        "rows": [
            (
                row,
                list(zip(table.columns, row.cells, strict=True)),
                list(zip(table.divisions, row.division_cells, strict=True)),
            )
            for row in table.rows
        ],
        "chart": standings_chart(table),
    }


def standings_page(request, competition_slug, key=None):
    """Every division of the competition (``key``: that one only), each with its chart and
    table."""
    competition = _competition(request, competition_slug)
    slug = competition.slug
    if key is None:
        # The first division's CSV keeps the address it had before divisions.
        shown = [
            _shown(
                division,
                table,
                csv_url=reverse("competition_standings_csv", args=[slug])
                if index == 0
                else reverse("competition_standings_division_csv", args=[slug, division.key]),
            )
            for index, (division, table) in enumerate(standings_tables(competition=competition))
        ]
    else:
        division = standings_settings(competition=competition, key=key)
        shown = []
        if division is not None:
            url = reverse("competition_standings_division_csv", args=[slug, division.key])
            shown = [_shown(division, standings_table(division), csv_url=url)]
    if not shown:
        raise Http404(_("This competition has no standings."))
    return render(
        request,
        "competitions/standings.html",
        {
            "competition": competition,
            "divisions": shown,
            # One division's page (or the only one's) names it in its heading.
            "single": shown[0]["division"] if key is not None or len(shown) == 1 else None,
            # One division's page links the page of them all, when there are others.
            "all_link": key is not None and competition.standings_divisions.count() > 1,
            "is_organizer": user_is_organizer(user=request.user, competition=competition),
        },
    )


def standings_download(request, competition_slug, key=None):
    """The CSV of the division ``key`` (``None``: the first)."""
    competition = _competition(request, competition_slug)
    table = standings_of(competition=competition, key=key)
    if table is None:
        raise Http404(_("This competition has no standings."))
    header, rows = standings_csv(table)
    name = f"{competition.slug}-standings" + ("" if key is None else f"-{key}")
    return csv_response(f"{name}.csv", header, rows)
