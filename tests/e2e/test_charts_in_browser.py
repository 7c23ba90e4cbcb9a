"""The charts in a browser: on a seeded round each chart draws the right number of marks,
hover text carries the values, nothing is blocked by the Content-Security-Policy (the
``web`` fixture fails on a blocked script or style), in English and Japanese, at desktop
and phone width (screenshots under ``PWSCUP_E2E_SCREENSHOTS``)."""

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


def test_charts_render_with_one_mark_per_row(web, e2e_world, celery_worker_process, screenshot):
    page, world = web, e2e_world
    seeds = {"a": (1, 3, 5), "b": (2,), "c": (4,)}
    for letter, letter_seeds in seeds.items():
        for seed in letter_seeds:
            done = submit_anonymization(world, letter, noisy_copy(world.original, seed=seed))
            assert done.status == Status.FINISHED, done.message

    log_in(page, "team-a")
    page.goto(world.round_url() + "leaderboard/")
    scatter = page.get_by_test_id("scatter")
    expect(scatter.locator("circle.point")).to_have_count(3)  # one per team
    expect(scatter.locator("circle.point.own")).to_have_count(1)
    expect(scatter.locator("circle.point.own")).to_have_attribute("data-team", "teamA")
    title = scatter.locator('circle.point[data-team="teamB"] title').text_content()
    assert title.startswith("Team B") and "U4 = " in title and "E3 = " in title
    screenshot(page, "chart-scatter-en")
    page.get_by_test_id("scatter-x").select_option("U1")
    page.get_by_test_id("scatter-all").check()
    with page.expect_navigation():
        scatter.locator("button[type=submit]").click()
    expect(page.get_by_test_id("scatter-x-label")).to_have_text("U1 meanMAE (↓)")
    expect(scatter.locator("circle.faint-point")).to_have_count(3)  # team A's own three
    screenshot(page, "chart-scatter-all-en")

    page.goto(world.round_url())
    history = page.get_by_test_id("history-chart")
    expect(history.get_by_test_id("history-U4").locator("circle.point")).to_have_count(3)
    expect(history.get_by_test_id("history-E3").locator("circle.point")).to_have_count(3)
    history.get_by_test_id("history-U4").scroll_into_view_if_needed()
    screenshot(page, "chart-history-en")

    services.round_freeze(round=world.round)
    wait_for_builtin_attacks(world)
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    matrix = attack_matrix(round=world.round)
    page.goto(world.round_url() + "matrix/")
    heatmap = page.get_by_test_id("heatmap")
    expect(heatmap.locator("g.heat-cell")).to_have_count(
        (len(matrix.attackers) + 1) * len(matrix.targets)
    )
    expect(heatmap.get_by_test_id("heat-legend")).to_be_visible()
    worst = heatmap.locator("g.heat-cell title").last.text_content()
    assert worst.startswith("Worst case → ")
    screenshot(page, "chart-heatmap-en")

    switch_language(page, "ja")
    expect(page.get_by_test_id("heatmap").locator("g.heat-cell")).to_have_count(
        (len(matrix.attackers) + 1) * len(matrix.targets)
    )
    screenshot(page, "chart-heatmap-ja")
    page.goto(world.round_url() + "leaderboard/")
    expect(page.get_by_test_id("scatter").locator("circle.point")).to_have_count(3)
    screenshot(page, "chart-scatter-ja")

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(world.round_url() + "leaderboard/")
    overflow = page.evaluate(
        "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"the leaderboard page scrolls sideways by {overflow}px at 390 px"
    box = page.get_by_test_id("scatter").locator("svg").bounding_box()
    assert box["width"] <= 390
    screenshot(page, "chart-scatter-phone-ja")
    page.goto(world.round_url())
    screenshot(page, "chart-history-phone-ja")
