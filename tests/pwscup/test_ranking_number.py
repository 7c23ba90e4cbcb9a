"""One ranking number per leaderboard (issue 37, point 4): the leaderboard's table, its chart
and the chart's data table, its CSV, the API's leaderboard and standings (``pwscup
leaderboard``) give a team the same number under the same name, at every state of the round
(``leaderboard_standings``): the built-in attacks' safety before the results may be seen, the
final ranking's (every attacker) after."""

import csv
import html
import io
import re

import pandas as pd
import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.pwscup2015.services.operations import round_results_set
from tests.pwscup.factories import freeze, scored, scored_attack, team_original, truth_of
from tests.support import table_bytes

BUILT_IN = "Worst-case re-identification rate of the built-in attacks"
EVERY = "Worst-case re-identification rate over every attack"


@pytest.fixture
def attacked(make_world):
    """Three teams, frozen; team A matched every row of B's target back (B's safety over
    every attack is 1.0, over the built-in attacks less)."""
    world = make_world(leaderboard_public=True)
    for k, letter in enumerate("ac"):
        scored(world, letter, seed=k + 1)
    scored(world, "b", content=rotated(team_original(world, "b")))
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    return world


def rotated(original: bytes) -> bytes:
    """Each row's values moved one row down: the built-in attacks match few rows back."""
    table = pd.read_csv(io.BytesIO(original), dtype=str, keep_default_na=False)
    return table_bytes(
        pd.DataFrame(table.to_numpy()[list(range(1, len(table))) + [0]], columns=table.columns)
    )


def _text(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


def _page(client, world, query="") -> str:
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug]) + query
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def web_table(client, world) -> tuple[str, dict[str, float]]:
    """The leaderboard table's ranking heading and each team's number in it."""
    page = _page(client, world)
    table = page.split('data-testid="leaderboard"', 1)[1].split("</table>")[0]
    heading = _text(table.split('data-testid="safety-header">')[1].split("</th>")[0])
    numbers = {}
    for slug, row in re.findall(r'data-testid="row-([^"]+)">(.*?)</tr>', table, re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)
        numbers[slug] = float(_text(cells[2]))
    return heading, numbers


def chart_table(client, world) -> tuple[str, dict[str, float]]:
    """The chart's data table (the ranking on the vertical axis, its default)."""
    chart = _page(client, world).split('data-testid="scatter-data"', 1)[1].split("</table>")[0]
    headings = [_text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", chart, re.S)]
    numbers = {}
    for row in re.findall(r"<tr><td.*?</tr>", chart, re.S):
        _rank, name, _x, y = (_text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S))
        numbers[name] = float(y)
    return headings[3], numbers


def csv_file(client, world) -> tuple[str, dict[str, float]]:
    rows = list(csv.reader(io.StringIO(_page(client, world, "?format=csv"))))
    column = rows[0].index("worst_case_rate")
    return rows[0][column], {row[1]: float(row[column]) for row in rows[1:]}


def api_leaderboard(user, world) -> tuple[tuple, tuple]:
    """The API's leaderboard (its ``safety_label``) and standings (their column's heading)."""
    headers = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}
    args = [world.competition.slug, world.round.slug]
    board = Client().get(reverse("api:leaderboard", args=args), **headers)
    assert board.status_code == 200, board.content
    board = board.json()
    assert board["safety_measure"] == "worst_case_rate"
    leaderboard = {row["team"]["name"]: row["safety"] for row in board["rows"]}
    standings = Client().get(reverse("api:round-standings", args=args), **headers)
    assert standings.status_code == 200, standings.content
    table = standings.json()["tables"][0]
    column = 2  # rank, team, the ranking number, the metrics
    standings_numbers = {row[1]: float(row[column]) for row in table["rows"]}
    return (board.get("safety_label"), leaderboard), (table["columns"][column], standings_numbers)


def every_surface(client, user, world) -> dict[str, tuple[str, dict[str, float]]]:
    client.force_login(user)
    names = {team.slug: team.name for team in world.teams.values()}
    heading, by_slug = web_table(client, world)
    return {
        "table": (heading, {names[slug]: value for slug, value in by_slug.items()}),
        "chart": chart_table(client, world),
        "csv": csv_file(client, world),
        **dict(zip(("api", "standings"), api_leaderboard(user, world), strict=True)),
    }


def assert_one_number(surfaces, *, label: str, team_b: float | None = None):
    """Every surface names the number ``label`` (the CSV by its column key) and gives each
    team the same number (the chart's data table to its 4 significant digits)."""
    table = surfaces["table"][1]
    assert set(table) == {"Team A", "Team B", "Team C"}
    for where, (_name, numbers) in surfaces.items():
        assert numbers == pytest.approx(table, abs=5e-5), where
    for where, (name, _numbers) in surfaces.items():
        assert name == ("worst_case_rate" if where == "csv" else label), where
    if team_b is not None:
        assert table["Team B"] == team_b


def test_after_publication_every_surface_gives_the_ranking_over_every_attack(attacked, client):
    round_results_set(round=attacked.round, published=True)
    surfaces = every_surface(client, attacked.users["c"], attacked)
    assert_one_number(surfaces, label=EVERY, team_b=1.0)  # team A's attack counts
    assert "Worst-case rate" not in _page(client, attacked)  # no second name on the page


def test_before_publication_a_team_sees_the_built_in_attacks_number_everywhere(attacked, client):
    surfaces = every_surface(client, attacked.users["c"], attacked)
    assert_one_number(surfaces, label=BUILT_IN)
    assert surfaces["table"][1]["Team B"] < 1.0  # team A's attack is not public yet


def test_after_the_freeze_the_organizer_sees_every_attack_everywhere(attacked, client):
    surfaces = every_surface(client, attacked.organizer, attacked)
    assert_one_number(surfaces, label=EVERY, team_b=1.0)


def test_before_the_freeze_the_number_is_the_built_in_attacks_even_if_published(make_world, client):
    world = make_world(leaderboard_public=True)
    for k, letter in enumerate("abc"):
        scored(world, letter, seed=k + 1)
    round_results_set(round=world.round, published=True)  # no target: no final ranking
    surfaces = every_surface(client, world.users["a"], world)
    assert_one_number(surfaces, label=BUILT_IN)


def test_the_japanese_page_names_the_number_once_in_its_table_and_chart(attacked, client):
    round_results_set(round=attacked.round, published=True)
    client.force_login(attacked.users["c"])
    page = client.get(
        reverse("leaderboard", args=[attacked.competition.slug, attacked.round.slug]),
        HTTP_ACCEPT_LANGUAGE="ja",
    ).content.decode()
    table = page.split('data-testid="leaderboard"', 1)[1].split("</table>")[0]
    heading = _text(table.split('data-testid="safety-header">')[1].split("</th>")[0])
    chart = page.split('data-testid="scatter-data"', 1)[1].split("</table>")[0]
    assert heading and heading.isascii() is False
    assert heading == _text(re.findall(r"<th[^>]*>(.*?)</th>", chart, re.S)[3])
