"""The DP leaderboard's chart of L2 against ε in Chromium (issue 37, point 8): visible and
inside the screen on a 390 px phone and on a desktop, in Japanese and English, under the
strict CSP."""

import pytest

from pwscup.dp.services import dp_round_score
from tests.e2e.helpers import PASSWORD, log_in
from tests.pwscup.dp_world import build_dp_world, close_now, toy_estimate_csv, upload_estimate

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

VIEWS = [("ja", 390), ("en", 390), ("en", 1280), ("ja", 1280)]


def test_the_l2_chart_is_visible_on_a_phone_and_a_desktop(chromium, live_server, screenshot):
    world = build_dp_world(slug="dpchart-e2e", password=PASSWORD)
    upload_estimate(world, "a", "eps-1", toy_estimate_csv([3, 2, 1, 1, 2, 1]))
    upload_estimate(world, "a", "eps-4", toy_estimate_csv())
    upload_estimate(world, "b", "eps-4", toy_estimate_csv([9, 0, 0, 0, 0, 1], (5, 5)))
    close_now(world)
    dp_round_score(dp_round=world.dp_round)
    for language, width in VIEWS:
        context = chromium.new_context(
            base_url=live_server.url,
            locale="ja-JP" if language == "ja" else "en-US",
            viewport={"width": width, "height": 844},
        )
        page = context.new_page()
        blocked = []
        page.on(
            "console",
            lambda m, blocked=blocked: "Content Security Policy" in m.text and blocked.append(m),
        )
        try:
            log_in(page, "dpchart-e2e-team-a")
            page.goto(f"/c/{world.competition.slug}/{world.round.slug}/dp/leaderboard/")
            chart = page.get_by_test_id("dp-l2-svg")
            chart.scroll_into_view_if_needed()
            assert chart.is_visible()
            box = chart.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width
            assert box["height"] > 150  # drawn at a readable size, not squeezed
            assert page.locator("[data-testid=dp-l2-svg] circle.point").count() == 3
            assert page.evaluate("() => document.documentElement.scrollWidth") <= width
            heading = "ε に対する L2 誤差" if language == "ja" else "L2 error against ε"
            assert page.get_by_test_id("dp-l2-chart").get_by_role("heading").inner_text() == heading
            screenshot(page, f"dp-l2-chart-{language}-{width}")
        finally:
            context.close()
        assert blocked == []
