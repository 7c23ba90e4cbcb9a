"""Browser journey of the DP round (issue 11): a team spends its budget interactively, is
refused past it, requests a batch release, builds and uploads an estimate; after the close
the leaderboard shows its L2 next to the baselines. English and Japanese, desktop and a
390 px phone, under the strict CSP."""

import pytest

from pwscup.dp.services import dp_round_score
from tests.e2e.helpers import PASSWORD, log_in, reload_page, switch_language
from tests.pwscup.dp_world import MOVIELENS_CONFIG, build_dp_world, close_now, movielens_csv

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def dp_e2e_world(transactional_db):
    return build_dp_world(
        slug="dpe2e", table=movielens_csv(), config=MOVIELENS_CONFIG, password=PASSWORD
    )


def fits(page, width: int) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth") <= width


def ask(page, epsilon: str, attributes=("gender", "age")) -> None:
    page.select_option("select[name=type]", "histogram")
    for name in attributes:
        page.check(f"input[name=attributes][value={name}]")
    page.fill("input[name=epsilon]", epsilon)
    with page.expect_navigation():
        page.get_by_test_id("dp-query-submit").click()


def test_a_team_spends_its_budget_releases_estimates_and_sees_its_l2(web, dp_e2e_world, screenshot):
    world = dp_e2e_world
    round_url = f"/c/{world.competition.slug}/{world.round.slug}/"
    log_in(web, "dpe2e-team-a")
    web.goto(round_url)
    with web.expect_navigation():
        web.get_by_test_id("tab-submit").click()  # the levels and budgets are under Submit
    assert web.get_by_test_id("dp-level-eps-1").is_visible()
    assert web.get_by_test_id("tab-submit").get_attribute("aria-current") == "page"
    screenshot(web, "dp-round-en-desktop")
    web.get_by_test_id("dp-level-link-eps-1").click()
    web.wait_for_selector("[data-testid=dp-query-form]")

    # Interactive track: 0.5 + 1/4, then 0.5 is refused (only 1/4 left), then 1/4 lands on 1.
    ask(web, "0.5")
    assert web.get_by_test_id("dp-remaining").inner_text() == "0.5"
    ask(web, "1/4")
    ask(web, "0.5")
    refusal = web.get_by_test_id("message").first.inner_text()
    assert refusal.startswith("refused: query 3 asks epsilon 0.5 but only 0.25")
    assert web.get_by_test_id("dp-remaining").inner_text() == "0.25"
    ask(web, "0.25")
    assert web.get_by_test_id("dp-remaining").inner_text() == "0"
    assert web.get_by_test_id("dp-charges").locator(":scope > tbody > tr").count() == 3
    with web.expect_download() as download:
        web.get_by_test_id("dp-ledger-csv").click()
    assert download.value.suggested_filename == "ledger_teama_eps-1.csv"
    screenshot(web, "dp-level-en-desktop")

    # Batch track at ε = 4: one group per attribute, ε 1 and 3.
    web.goto(f"{round_url}dp/levels/eps-4/")
    web.select_option("select[name=group_of_gender]", "1")
    web.select_option("select[name=group_of_age]", "2")
    web.fill("input[name=g1_amount]", "1")
    web.fill("input[name=g2_amount]", "3")
    with web.expect_navigation():
        web.get_by_test_id("dp-release-submit").click()
    assert "Release 1 is ready; 4 charged." in web.get_by_test_id("message").first.inner_text()
    with web.expect_download() as download:
        web.get_by_test_id("dp-release-1").click()
    assert download.value.suggested_filename == "release_eps-4_1.csv"
    # Build the estimate from the release with BR (free), then see it listed: no score.
    web.select_option("[data-testid=dp-estimate-source]", "release-1")
    web.select_option("[data-testid=dp-estimator]", "BR")
    with web.expect_navigation():
        web.get_by_test_id("dp-estimate-from-submit").click()
    assert "Estimate accepted" in web.get_by_test_id("message").first.inner_text()
    assert "BR" in web.get_by_test_id("dp-estimate-list").inner_text()

    # At ε = 1 the team uploads its own estimate file (the third answer, clamped by hand).
    web.goto(f"{round_url}dp/levels/eps-1/")
    lines = ["target,gender,age,count"] + [
        f"gender_age,{g},{a},{v}"
        for (g, a), v in zip(
            [(g, a) for g in "FM" for a in MOVIELENS_CONFIG["attributes"]["age"]],
            [80, 300, 550, 340, 190, 150, 100, 140, 800, 1540, 850, 360, 350, 280],
            strict=True,
        )
    ]
    web.set_input_files(
        "[data-testid=dp-estimate-form] input[type=file]",
        files=[
            {
                "name": "estimate.csv",
                "mimeType": "text/csv",
                "buffer": ("\n".join(lines) + "\n").encode(),
            }
        ],
    )
    with web.expect_navigation():
        web.get_by_test_id("dp-estimate-submit").click()
    assert "received: a worker checks it" in web.get_by_test_id("message").first.inner_text()
    from pwscup.dp.services import dp_estimates_build_queued

    dp_estimates_build_queued()  # what the worker does
    reload_page(web)  # the page's own live script may reload it at the same moment
    assert "format OK" in web.get_by_test_id("dp-estimate-list").inner_text()
    web.set_viewport_size({"width": 390, "height": 844})
    assert fits(web, 390), "the level page is wider than a 390 px phone"
    screenshot(web, "dp-level-en-phone")
    switch_language(web, "ja")
    assert "ε 台帳" in web.get_by_test_id("dp-ledger").inner_text()
    assert fits(web, 390), "the Japanese level page is wider than a 390 px phone"
    screenshot(web, "dp-level-ja-phone")

    web.goto(f"{round_url}dp/leaderboard/")
    assert web.get_by_test_id("dp-hidden").is_visible()
    close_now(world)
    dp_round_score(dp_round=world.dp_round)  # what the worker does after the close
    web.goto(f"{round_url}dp/leaderboard/")
    l2 = float(web.get_by_test_id("dp-l2-eps-1-teama").inner_text())
    assert 0 < l2 < 40
    assert web.get_by_test_id("dp-baseline-eps-1-BT").is_visible()
    assert web.get_by_test_id("dp-baseline-eps-1-IT1").is_visible()
    assert "X* =" in web.get_by_test_id("dp-crossing-eps-1").inner_text()
    assert web.get_by_test_id("dp-paper-eps-1-BT").inner_text() == "1303; 0.83"  # 表 5
    assert "X* = 91" in web.get_by_test_id("dp-paper-crossing-eps-1").inner_text()  # 表 6
    assert fits(web, 390) or web.locator(".scroll").count() > 0
    screenshot(web, "dp-leaderboard-ja-phone")
    switch_language(web, "en")
    web.set_viewport_size({"width": 1366, "height": 900})
    assert web.get_by_test_id("dp-row-eps-4-teama").locator("td").nth(2).inner_text() == "BR"
    screenshot(web, "dp-leaderboard-en-desktop")
