"""The charts in a browser: on a seeded round the leaderboard's scatter draws one labelled
point per team, and Chromium's own text boxes (getBBox) put every point and label inside
the plot area without two labels overlapping; the attack matrix is one coloured table with
its legend and its strongest attacks marked. Nothing is blocked by the
Content-Security-Policy (the ``web`` fixture fails on a blocked script or style), in
English at 1280 px and Japanese at 390 px (screenshots under ``PWSCUP_E2E_SCREENSHOTS``)."""

import pytest
from playwright.sync_api import expect

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.leaderboards.selectors import attack_matrix
from pwscup.pwscup2015.models import Pwscup2015Round
from pwscup.submissions.models import Status
from tests.e2e.helpers import (
    log_in,
    submit_anonymization,
    switch_language,
    wait_for_builtin_attacks,
)
from tests.support import noisy_copy

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# Every point or label whose drawn box (as Chromium measured it, whatever font it found)
# touches or leaves the plot area.
OUTSIDE_THE_PLOT = """svg => {
  const area = svg.querySelector('rect.plot-area').getBBox();
  return Array.from(svg.querySelectorAll('circle.point, text.label')).map((e) => {
    const b = e.getBBox();
    const name = e.tagName === 'text' ? e.firstChild.textContent : e.dataset.team;
    return [name, b];
  }).filter(([, b]) => b.x <= area.x || b.y <= area.y || b.x + b.width >= area.x + area.width
      || b.y + b.height >= area.y + area.height)
    .map(([name, b]) => `${name}: ${b.x.toFixed(0)},${b.y.toFixed(0)} ${b.width.toFixed(0)}x${b.height.toFixed(0)}`);
}"""

# Pairs of labels whose drawn boxes overlap.
OVERLAPPING_LABELS = """svg => {
  const boxes = Array.from(svg.querySelectorAll('text.label'), (e) => [e.firstChild.textContent, e.getBBox()]);
  const out = [];
  boxes.forEach(([a, p], i) => boxes.slice(i + 1).forEach(([b, q]) => {
    if (Math.min(p.x + p.width, q.x + q.width) > Math.max(p.x, q.x)
        && Math.min(p.y + p.height, q.y + q.height) > Math.max(p.y, q.y)) out.push(`${a} / ${b}`);
  }));
  return out;
}"""


def test_charts_render_with_one_labelled_mark_per_team(
    web, e2e_world, celery_worker_process, screenshot
):
    page, world = web, e2e_world
    seeds = {"a": (1, 3, 5), "b": (2,), "c": (4,)}
    for letter, letter_seeds in seeds.items():
        for seed in letter_seeds:
            done = submit_anonymization(world, letter, noisy_copy(world.original, seed=seed))
            assert done.status == Status.FINISHED, done.message

    log_in(page, "team-a")
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(world.round_url() + "leaderboard/")
    expect(page.get_by_test_id("tab-results")).to_have_attribute("aria-current", "page")
    scatter = page.get_by_test_id("scatter")
    svg = scatter.locator("svg")
    expect(svg.locator("circle.point")).to_have_count(3)  # one per team
    expect(svg.locator("circle.point.own")).to_have_attribute("data-team", "teamA")
    expect(svg.locator("text.label")).to_have_count(3)
    names = sorted(
        svg.locator("text.label").evaluate_all("ls => ls.map(l => l.firstChild.textContent)")
    )
    assert names == ["Team A", "Team B", "Team C"]
    # The chart is every team's; the page's script marks the reader's point and name.
    own_names = svg.locator("text.label.own")
    assert own_names.evaluate_all("ls => ls.map(l => l.firstChild.textContent)") == ["Team A"]
    assert svg.locator("circle.point").last.get_attribute("data-team") == "teamA"  # on top
    assert svg.locator("circle.point.own").evaluate("c => getComputedStyle(c).fill") == (
        "rgb(217, 72, 15)"
    )
    expect(page.get_by_test_id("scatter-y-label")).to_contain_text("(ranking)")
    assert svg.evaluate(OUTSIDE_THE_PLOT) == []
    assert svg.evaluate(OVERLAPPING_LABELS) == []
    title = svg.locator('circle.point[data-team="teamB"] title').text_content()
    assert title.startswith("Team B") and "U4 = " in title and "ranking = " in title
    screenshot(page, "leaderboard-en-1280")

    page.get_by_test_id("scatter-x").select_option("U1")
    page.get_by_test_id("scatter-all").check()
    with page.expect_navigation():
        scatter.locator("button[type=submit]").click()
    expect(page.get_by_test_id("scatter-x-label")).to_have_attribute("data-axis", "U1")
    expect(svg.locator("circle.faint-point")).to_have_count(3)  # team A's own three
    assert svg.evaluate(OUTSIDE_THE_PLOT) == []
    screenshot(page, "leaderboard-all-en-1280")

    services.round_freeze(round=world.round)
    wait_for_builtin_attacks(world)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    matrix = attack_matrix(round=world.round)
    page.goto(world.round_url() + "matrix/")
    expect(page.get_by_test_id("tab-results")).to_have_attribute("aria-current", "page")
    table = page.get_by_test_id("matrix")
    expect(table.locator("tr[data-attacker]")).to_have_count(len(matrix.attackers))
    expect(page.locator("main svg")).to_have_count(0)  # no heatmap repeating the table
    expect(page.get_by_test_id("heat-legend").get_by_test_id("heat-step")).to_have_count(6)
    attacked = sum(1 for worst in matrix.worst_cases() if worst)
    assert table.locator("td.strongest").count() >= attacked > 0
    screenshot(page, "matrix-en-1280")

    switch_language(page, "ja")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(world.round_url() + "leaderboard/")
    svg = page.get_by_test_id("scatter").locator("svg")
    expect(svg.locator("text.label")).to_have_count(3)
    expect(page.get_by_test_id("scatter-y-label")).to_contain_text("順位")
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the leaderboard page scrolls sideways by {overflow}px at 390 px"
    assert svg.bounding_box()["width"] <= 390
    assert svg.evaluate(OUTSIDE_THE_PLOT) == []
    assert svg.evaluate(OVERLAPPING_LABELS) == []
    screenshot(page, "leaderboard-ja-390")
    page.goto(world.round_url() + "matrix/")
    screenshot(page, "matrix-ja-390")
