"""Charts on the pages: the leaderboard's scatter (one labelled point per team, the ranking's
safety up by default), a team's score history, the attack matrix's table with its colour
legend (no heatmap: ``charts/heatmap.py`` says why) and the metrics' legend."""

import doctest
import html
import importlib
import re

import pytest
from django.urls import reverse

from pwscup.competitions.selectors import round_metrics
from pwscup.pwscup2015.leaderboards import charts
from pwscup.pwscup2015.leaderboards.selectors import (
    anonymization_leaderboard,
    attack_matrix,
    final_ranking,
)
from pwscup.pwscup2015.models import AttackSubmission, Pwscup2015Round
from scoring.display import format_number
from tests.pwscup.factories import freeze, scored, scored_attack, truth_of

pytestmark = pytest.mark.django_db

CHART_MODULES = (
    *(
        f"pwscup.pwscup2015.leaderboards.charts.{n}"
        for n in ("axes", "heatmap", "history", "scatter")
    ),
    "pwscup.core.charts.labels",
    "pwscup.core.charts.text",
    "pwscup.dp.charts",
    "pwscup.sequential.charts",
    "pwscup.pwscup2015.data_picture",
)


def points(html_: str, kind: str = "point") -> list[str]:
    return re.findall(rf'<circle class="{kind}[^"]*"[^>]*>', html_)


def titles(html_: str, kind: str = "point") -> list[str]:
    return re.findall(rf'<circle class="{kind}[^"]*"[^>]*><title>([^<]*)</title>', html_)


def labels(html_: str) -> list[tuple[str, str, str]]:
    """(attributes, drawn text, full name) of every team label."""
    return re.findall(r'<text class="label"([^>]*)>([^<]*)<title>([^<]*)</title>', html_)


def scatter_of(page: str) -> str:
    return page.split('data-testid="scatter"', 1)[1].split("</figure>")[0]


def axis_title(chart: str, axis: str) -> str:
    """The axis title as read: its lines (tspans) joined by a space, tags and entities out."""
    drawn = chart.split(f'data-testid="scatter-{axis}-label">')[1].split("</text>")[0]
    return html.unescape(" ".join(re.findall(r"<tspan[^>]*>([^<]*)</tspan>", drawn)))


@pytest.fixture
def board(make_world):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "a", seed=3, delete=4)
    scored(world, "b", seed=2)
    return world


def _leaderboard(client, world, query=""):
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug]) + query
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode()


def test_every_team_has_a_labelled_point_and_the_page_names_the_own_team(board, client):
    client.force_login(board.users["a"])
    page = _leaderboard(client, board)
    chart = scatter_of(page)
    rows = anonymization_leaderboard(phase=board.anonymization)
    assert len(points(chart)) == len(rows) == 2
    # The drawing is every team's (cached once per ranking version): no point is drawn apart;
    # the page names the reader's team and its script marks that team's point and label.
    assert [p for p in points(chart) if "own" in p] == []
    assert {re.search(r'r="([\d.]+)"', p).group(1) for p in points(chart)} == {"6"}
    assert re.findall(r'data-own-team="([^"]*)"', page) == ["teamA"]
    drawn = {name: (attributes, text) for attributes, text, name in labels(chart)}
    assert set(drawn) == {"Team A", "Team B"}
    assert 'data-team="teamA"' in drawn["Team A"][0]
    assert 'data-team="teamB"' in drawn["Team B"][0]
    assert all('font-weight="bold"' not in attributes for attributes, _text in drawn.values())
    assert "your team" in chart.split('data-testid="scatter-legend"')[1].split("</p>")[0]
    # hover text: the team and the same numbers as the table (the same selector)
    by_team = {r.team.name: r for r in rows}
    for title in titles(chart):
        row = by_team[title.split("\n")[0].split(" (#")[0]]
        assert f"U4 = {row.scores['U4']:.4g}" in title
        assert f"ranking = {row.safety:.4g}" in title
    # accessible: an image with a title and a description, and the values as a table
    assert 'role="img" aria-labelledby="scatter-title scatter-desc"' in chart
    title = html.unescape(re.search(r'<title id="scatter-title">([^<]*)</title>', chart).group(1))
    assert title.startswith("worst-case re-identification rate") and "(U4 corMAE)" in title
    table = chart.split('data-testid="scatter-data"')[1]
    assert all(f"<td>{name}</td>" in table for name in by_team)


def test_the_ranking_metric_is_the_default_vertical_axis_and_said_in_plain_words(board, client):
    client.force_login(board.users["b"])
    chart = scatter_of(_leaderboard(client, board))
    y_label, x_label = axis_title(chart, "y"), axis_title(chart, "x")
    assert "worst-case re-identification rate of the built-in attacks" in y_label
    assert "(ranking)" in y_label and "lower is better" in y_label
    assert y_label.index("worst-case") < y_label.index("(ranking)")  # words first, code after
    assert "gap between the columns' correlations" in x_label and "(U4 corMAE)" in x_label
    assert re.search(r'name="y"[^>]*>\s*<option value="ranking" selected>', chart)
    assert '<option value="U4" selected>' in chart


def test_the_axes_are_chosen_among_the_metrics_and_the_ranking(board, client):
    client.force_login(board.users["b"])
    chart = scatter_of(_leaderboard(client, board, "?x=ranking&y=S1"))
    assert "(ranking)" in axis_title(chart, "x")
    y_label = axis_title(chart, "y")
    assert "(S1 k-anony)" in y_label and "higher is better" in y_label
    fallback = _leaderboard(client, board, "?x=nope&y=<script>")
    assert "(U4 corMAE)" in axis_title(scatter_of(fallback), "x")
    assert "<script>" not in fallback.split("<main", 1)[-1].split("</main>")[0]


def test_after_the_freeze_the_ranking_axis_counts_every_attack_for_who_may_see_it(
    make_world, client
):
    world = make_world(leaderboard_public=True)
    for k, letter in enumerate("abc"):
        scored(world, letter, seed=k + 1)
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    client.force_login(world.users["c"])  # results not published: the built-in rate
    chart = scatter_of(_leaderboard(client, world))
    assert "of the built-in attacks" in chart and "over every attack" not in chart
    client.force_login(world.organizer)  # the organizer sees the final ranking's
    chart = scatter_of(_leaderboard(client, world))
    assert "worst-case re-identification rate over every attack" in chart
    final = {row.team.name: row.safety for row in final_ranking(round=world.round)[0]}
    assert final["Team B"] == 1.0  # team A matched every row of B back
    for title in titles(chart):
        name = title.split("\n")[0].split(" (#")[0]
        assert f"ranking = {final[name]:.4g}" in title


def test_faint_points_are_the_viewers_own_uploads_or_all_for_organizers(board, client):
    client.force_login(board.users["b"])
    assert points(_leaderboard(client, board), "faint-point") == []
    mine = titles(_leaderboard(client, board, "?all=1"), "faint-point")
    assert len(mine) == 1 and all(t.startswith("Team B") for t in mine)
    client.force_login(board.organizer)
    everyone = titles(_leaderboard(client, board, "?all=1"), "faint-point")
    assert len(everyone) == 3  # two of team A, one of team B


def test_no_leaderboard_no_chart(make_world, client):
    world = make_world()  # private leaderboard
    scored(world, "a", seed=1)
    client.force_login(world.users["b"])
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    assert client.get(url).status_code == 403


def test_history_draws_the_teams_scored_submissions_per_metric(board, client):
    client.force_login(board.users["a"])
    page = client.get(board.round_url(), {"history": ["U4", "E3"]}).content.decode()
    if 'data-testid="history-U4"' not in page:  # the charts live on the Results tab
        page = client.get(board.round_url() + "results/").content.decode()
    for metric in ("U4", "E3"):
        chart = page.split(f'data-testid="history-{metric}"')[1].split("</figure>")[0]
        assert len(points(chart)) == 2
        assert "(" + metric in chart.split("<figcaption")[1].split("</figcaption>")[0]
        assert len(re.findall(r'<text class="label"', chart)) == 1  # the latest value


def test_the_matrix_is_one_coloured_table_with_a_legend_and_the_strongest_attacks(
    make_world, client
):
    world = make_world()
    for k, letter in enumerate("abc"):
        scored(world, letter, seed=k + 1)
    targets = freeze(world)
    scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    client.force_login(world.users["c"])
    page = client.get(
        reverse("matrix", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    main = page.split("<main", 1)[1]
    assert "<svg" not in main.split("</header>")[-1]  # no heatmap repeating the table
    legend = main.split('data-testid="heat-legend"')[1].split("</div>")[0]
    assert [c for c in re.findall(r'<li class="(heat-\d+)"', legend)] == [
        f"heat-{k}" for k in (0, 2, 4, 6, 8, 10)
    ]
    assert "0 safe" in legend and "1 re-identified" in legend and "▲" in legend
    matrix = attack_matrix(round=world.round)
    worst = dict(zip([t.team.name for t in matrix.targets], matrix.worst_cases(), strict=True))
    assert worst["Team B"] == 1.0
    row_a = main.split('data-attacker="Team A"')[1].split("</tr>")[0]
    cells = re.findall(r'<td class="num ([^"]*)"', row_a)
    b_column = [t.team.name for t in matrix.targets].index("Team B")
    assert "strongest" in cells[b_column] and "heat-10" in cells[b_column]
    # each marked cell is its column's worst case
    table = main.split('data-testid="matrix"')[1].split("</table>")[0]
    for row in re.findall(r"<tr data-attacker=[^>]*>(.*?)</tr>", table, re.S):
        for column, cell in enumerate(re.findall(r"<td (.*?)</td>", row, re.S)):
            if "strongest" in cell:
                value = re.sub(r"<[^>]+>|strongest:|▲", "", cell.split(">", 1)[1]).split()[0]
                assert value == format_number(matrix.worst_cases()[column])


def test_a_tiny_re_identification_rate_never_reads_as_zero_in_the_matrix(make_world, client):
    """One row re-identified out of 32,561 is a rate of 3.1e-05: the matrix table shows it by
    the display rule, not as 0.0000."""
    world = make_world()
    for k, letter in enumerate("ab"):
        scored(world, letter, seed=k + 1)
    targets = freeze(world)
    attack = scored_attack(world, "a", targets["b"], truth_of(targets["b"]))
    AttackSubmission.objects.filter(pk=attack.pk).update(rate=1 / 32561)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    client.force_login(world.users["b"])
    page = client.get(
        reverse("matrix", args=[world.competition.slug, world.round.slug])
    ).content.decode()
    table = page.split('data-attacker="Team A"')[1].split("</tr>")[0]
    assert format_number(1 / 32561) == "0.000031"
    assert ">0.000031<" in table and "0.0000<" not in table


def test_the_legend_says_each_metric_in_a_plain_sentence_then_its_code(board, client):
    client.force_login(board.users["a"])
    page = _leaderboard(client, board)
    legend = page.split('data-testid="metric-legend"')[1].split("</details>")[0]
    items = dict(re.findall(r'<li data-legend="(\w+)">(.*?)</li>', legend, re.S))
    assert set(items) == {"ranking", *round_metrics(round=board.round)}
    u4 = html.unescape(re.sub(r"<[^>]+>", "", items["U4"]))
    assert u4.startswith("How far the correlations between the sensitive columns moved.")
    assert u4.index("moved.") < u4.index("U4 corMAE")
    assert "lower is better" in u4
    assert "S1 k-anony, higher is better" in html.unescape(re.sub(r"<[^>]+>", "", items["S1"]))
    ranking = html.unescape(re.sub(r"<[^>]+>", "", items["ranking"]))
    assert ranking.startswith("The number teams are ranked by")


def test_a_metric_header_s_tip_says_what_it_measures_in_the_reader_s_language(board, client):
    """Hovering a column's code (``U4``) tells what it measures and which way is better, as
    the legend says it, in the reader's language: not only the paper's English name."""
    client.force_login(board.users["a"])
    tips = {}
    for language in ("en", "ja"):
        client.cookies["django_language"] = language
        page = _leaderboard(client, board)
        table = page.split('data-testid="leaderboard"')[1].split("</thead>")[0]
        tips[language] = {
            code: html.unescape(tip)
            for tip, code in re.findall(r'<th[^>]*title="([^"]*)"[^>]*>(\w+)</th>', table)
        }
    assert set(tips["en"]) == set(round_metrics(round=board.round))
    u4 = tips["en"]["U4"]
    assert u4.startswith("How far the correlations between the sensitive columns moved.")
    assert "corMAE" in u4 and "lower is better" in u4
    assert "higher is better" in tips["en"]["S1"]
    assert set(tips["ja"]) == set(tips["en"])
    for code, tip in tips["ja"].items():
        assert tip != tips["en"][code], code
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", tip), (code, tip)


def test_the_chart_modules_examples():
    for name in CHART_MODULES:
        module = importlib.import_module(name)
        assert doctest.testmod(module).failed == 0, name
    assert doctest.testmod(importlib.import_module(charts.__name__)).failed == 0


def test_the_leaderboard_matrix_and_final_ranking_sit_under_the_results_tab(make_world, client):
    world = make_world(leaderboard_public=True)
    for k, letter in enumerate("ab"):
        scored(world, letter, seed=k + 1)
    freeze(world)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    client.force_login(world.users["a"])
    args = [world.competition.slug, world.round.slug]
    for name, testid in (
        ("leaderboard", "leaderboard"),
        ("matrix", "matrix"),
        ("final_ranking", "final-anonymization"),
    ):
        page = client.get(reverse(name, args=args)).content.decode()
        assert 'data-testid="round-tabs"' in page, name
        assert re.search(r'data-testid="tab-results" aria-current="page"', page), name
        assert page.count('aria-current="page"') == 1, name
        assert f'data-testid="{testid}"' in page and 'data-testid="page-heading"' in page, name
        assert f"<h1>{world.round.name}</h1>" in page, name


def test_the_live_part_of_the_leaderboard_is_answered_304_until_a_score_arrives(board, client):
    client.force_login(board.users["a"])
    url = reverse("leaderboard", args=[board.competition.slug, board.round.slug])
    page = client.get(url).content.decode()
    assert 'id="leaderboard-live"' in page and "leaderboard.js" in page
    first = client.get(url, {"fragment": "1", "x": "U1"})
    fragment = first.content.decode()
    assert first.status_code == 200 and first.has_header("ETag")
    assert fragment.lstrip().startswith('<div id="leaderboard-live"') and "<html" not in fragment
    assert 'data-testid="row-teamA"' in fragment and 'data-axis="U1"' in fragment
    assert 'data-testid="row-teamC"' not in fragment
    again = client.get(url, {"fragment": "1", "x": "U1"}, headers={"if-none-match": first["ETag"]})
    assert again.status_code == 304 and again.content == b""
    scored(board, "c", seed=5)  # a scoring job finishes: the next poll gets the new part
    changed = client.get(
        url, {"fragment": "1", "x": "U1"}, headers={"if-none-match": first["ETag"]}
    )
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert 'data-testid="row-teamC"' in changed.content.decode()
    assert len(points(scatter_of(changed.content.decode()))) == 3
