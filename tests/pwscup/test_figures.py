"""A column of scores reads with one number of decimals (``1.0000`` beside ``0.5000``, never
``1`` beside ``0.5000``), in both languages: the one rule of ``scoring.display.format_figure``
used by the standings, a round's total and the kinds' tables (docs/scoring.md, "How values
are shown")."""

import html
import re

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from pwscup.competitions.standings_models import Standings
from pwscup.competitions.total_services import round_total_formula_set
from pwscup.kinds.tabs import RESULTS, tab_url
from pwscup.scorer import services
from tests.pwscup.scorer_world import freeze, release, release_bytes, scorer_world
from tests.pwscup.test_standings import PUBLISHED, ranking, season, set_standings

__all__ = ["season"]  # the fixture, shared with test_standings.py


def _text(cell: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()


def _row_cells(page: str, testid: str) -> list[str]:
    """The text of each cell of the row marked ``data-testid=testid``."""
    row = page.split(f'data-testid="{testid}"', 1)[1].split("</tr>", 1)[0]
    return [_text(cell) for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)]


@pytest.mark.django_db
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_standings_combined_values_and_scores_read_with_four_decimals(season, client, lang):
    """The 2023 rule's combined values 1.1 … 5.0 (test_standings.py) and a ranking's scores
    1 and 0.5 in brackets: every figure with 4 decimals, none grouped by thousands."""
    competition, rounds, _organizer = season
    five = ranking(
        {"A": 1, "B": 2, "C": 3, "D": 4, "E": 5},
        {"A": 1, "B": 0.5, "C": 1234.5, "D": 0, "E": 0},
    )
    PUBLISHED["pre"] = {"anonymization": five, "attack": five}
    PUBLISHED["final"] = {
        "anonymization": ranking({"B": 1, "C": 2, "D": 2, "A": 4, "E": 5}),
        "attack": five,
    }
    set_standings(competition, rounds, Standings.Rule.WEIGHTED_RANK)
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    page = client.get(reverse("competition_standings", args=[competition.slug])).content.decode()
    combined = {
        letter: _row_cells(page, f"standings-team-{letter}")[2] for letter in ("A", "B", "E")
    }
    # A: 0.1 × (1 + 1) + 0.9 × (4 + 1) = 4.7; B: 0.1 × 4 + 0.9 × 3 = 3.1; E: 0.1 × 10 + 0.9 × 10.
    assert combined == {"A": "4.7000", "B": "3.1000", "E": "10.0000"}
    cells_a = _row_cells(page, "standings-team-A")
    assert cells_a[3] == "1 (1.0000)"
    assert _row_cells(page, "standings-team-B")[3] == "2 (0.5000)"
    assert _row_cells(page, "standings-team-C")[3] == "3 (1234.5000)"
    # The chart's labels say the same figures.
    assert "Team A: 4.7000</title>" in page


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("lang", ["en", "ja"])
def test_a_round_total_of_one_reads_1_0000(lang):
    world = scorer_world(slug="fig", letters="ab")
    release(world, "a", release_bytes(noise=0))
    release(world, "b", release_bytes(noise=20, seed=1))
    freeze(world)
    round_total_formula_set(user=world.organizer, round=world.round, formula="1")
    services.results_publish(scorer=world.scorer, user=world.organizer)
    client = Client()
    client.force_login(world.users["a"])
    client.cookies.load({settings.LANGUAGE_COOKIE_NAME: lang})
    page = client.get(tab_url(world.round, RESULTS)).content.decode()
    rows = page.split('data-testid="round-total-row"')[1:]
    assert len(rows) == 2
    # The figures right-aligned, as every other table of numbers.
    cells = [re.findall(r'<td class="num">(.*?)</td>', row) for row in rows]
    assert [_text(row[1]) for row in cells] == ["1.0000"] * 2


def test_the_standings_chart_keeps_the_longest_value_label_inside_its_width():
    # PWSCup 2025's weighted sums (194.5000 beside 191.5000) were cut at the right edge of
    # the chart on a phone ("194.500("): the bars leave room for the longest label.
    from types import SimpleNamespace

    from pwscup.competitions.standings import StandingsRow, StandingsTable
    from pwscup.pages.standings import DIGIT, standings_chart

    rows = [
        StandingsRow(team=SimpleNamespace(name=f"Team {n}"), cells=[], value=value, rank=n)
        for n, value in enumerate((194.5, 191.5, 12345.25), start=1)
    ]
    chart = standings_chart(StandingsTable("weighted_score", "", [], rows, True))
    for bar in chart["bars"]:
        assert chart["left"] + bar.width + 4 + DIGIT * len(bar.label) <= chart["width"]
    assert max(bar.width for bar in chart["bars"]) > 100  # the bars still fill the chart
