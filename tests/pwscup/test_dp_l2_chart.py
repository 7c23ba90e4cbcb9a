"""The DP leaderboard's chart of L2 against ε (``pwscup.dp.charts``): one point per team's
final verified estimate per level and per baseline with an L2, only after the close, in
English and Japanese, with no cell of the hidden table in it."""

import re

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.dp.charts import l2_chart
from pwscup.dp.ranking import level_boards
from pwscup.dp.services import dp_round_score
from tests.pwscup.dp_world import build_dp_world, close_now, toy_estimate_csv, upload_estimate


@pytest.fixture
def scored(db):
    world = build_dp_world(slug="dpchart")
    # Team A at both levels (exact, then off by a few); team B at eps-4 only.
    upload_estimate(world, "a", "eps-1", toy_estimate_csv([3, 2, 1, 1, 2, 1]))
    upload_estimate(world, "a", "eps-4", toy_estimate_csv())
    upload_estimate(world, "b", "eps-4", toy_estimate_csv([9, 0, 0, 0, 0, 1], (5, 5)))
    return world


def board_page(world, *, who="a", language="en"):
    client = Client(headers={"accept-language": language})
    client.force_login(world.users[who])
    address = reverse(
        "dp:leaderboard",
        kwargs={"competition_slug": world.competition.slug, "round_slug": world.round.slug},
    )
    response = client.get(address)
    assert response.status_code == 200
    return response.content.decode()


def svg_of(page: str) -> str:
    found = re.search(r'<svg viewBox[^>]*data-testid="dp-l2-svg".*?</svg>', page, re.S)
    assert found, "no chart"
    return found.group(0)


def test_no_chart_before_the_close(scored):
    assert "dp-l2-chart" not in board_page(scored)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_chart_has_a_point_per_team_and_level_and_per_baseline(scored, language):
    close_now(scored)
    dp_round_score(dp_round=scored.dp_round)
    page = board_page(scored, language=language)
    svg = svg_of(page)
    assert svg.count('class="point" data-series="teamb"') == 1  # B: eps-4 only
    assert svg.count('class="point own" data-series="teama"') == 2  # the reader's team
    boards = level_boards(dp_round=scored.dp_round)
    # BT, BR, the prior, and of the IT_X only the best one, at each level
    baselines = sum(
        sum(1 for r in b.baselines["rows"] if not r["label"].startswith("IT")) + 1 for b in boards
    )
    assert all(sum(r["label"].startswith("IT") for r in b.baselines["rows"]) > 1 for b in boards)
    assert baselines > 0 and svg.count('class="baseline-point"') == baselines
    assert svg.count("<title>") == 3 + baselines + 2  # a hover text per point and label
    heading = "ε に対する L2 誤差" if language == "ja" else "L2 error against ε"
    assert heading in page
    assert ("L2 の平均" if language == "ja" else "mean L2") in svg
    # Nothing of the hidden table: its cell counts are not a series, and no truth section.
    assert "dp-truth" not in page and "publish_truth" not in page


def test_another_team_sees_the_same_points_and_its_own_in_orange(scored):
    close_now(scored)
    dp_round_score(dp_round=scored.dp_round)
    svg = svg_of(board_page(scored, who="b"))
    assert svg.count('class="point own" data-series="teamb"') == 1
    assert svg.count('class="point" data-series="teama"') == 2


def test_a_log_scale_when_the_values_span_a_decade_else_linear_from_zero():
    from fractions import Fraction
    from types import SimpleNamespace as NS

    team = NS(pk=1, name="Team A", slug="a")

    def board(eps, l2, baseline):
        return NS(
            level=f"eps-{eps}",
            epsilon=Fraction(eps),
            epsilon_text=str(eps),
            verified=[NS(team=team, mean_l2=l2)],
            baselines={
                "rows": [
                    {"label": "BT", "l2": baseline},
                    {"label": "IT3", "l2": None},
                    {"label": "IT5", "l2": baseline * 3},
                    {"label": "IT9", "l2": baseline * 2},
                ]
            },
        )

    chart = l2_chart(boards=[board(4, 0.5, 3.0), board(1, 40.0, 12.0)], own_team_id=1)
    assert chart.log_y
    team_series, bt, best_it = chart.series
    assert [p.title.split("\n")[1] for p in team_series.points] == [
        "ε = 1 (eps-1)",
        "ε = 4 (eps-4)",
    ]
    assert [label for _at, label in chart.y_ticks] == ["0.1", "1", "10", "100"]
    assert len(bt.points) == 2
    # of the IT_X, the best one at each level (IT3 has no L2), named in its hover text
    assert [p.title.split("\n")[0] for p in best_it.points] == ["IT9", "IT9"]
    for series in chart.series:
        for point in series.points:
            assert chart.left < point.x < chart.right and chart.top < point.y < chart.bottom
    linear = l2_chart(boards=[board(1, 0.0, 3.0), board(4, 2.0, 30.0)])  # an L2 of 0
    assert not linear.log_y and linear.y_ticks[0][1] == "0"
    assert l2_chart(boards=[]) is None
