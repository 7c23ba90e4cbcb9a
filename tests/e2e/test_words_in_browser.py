"""What the pages tell a team, read in the browser (issue 37, point 10), in Japanese on a 390 px
phone and in English at 1280 px, each page photographed: the 2015 Rules tab reproduces the
scores with the toolkit wheel of the Data tab (the kit's README says the same), and a DP level
page spends the budget ε (消費), it does not pay for it (課金)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.core.toolkit import wheel_filename
from tests.e2e.helpers import NEWCOMER_VIEWS, PASSWORD, keep_screenshot, log_in, open_tab
from tests.e2e.test_phone_width import page_overflow
from tests.pwscup.dp_world import build_dp_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

DP_WORDS = {
    "ja": {
        "ask": "送信（ε を消費）",
        "release": "開示（ε を消費）",
        "release_help": "各グループに ε（消費はその合計）か ρ",
    },
    "en": {
        "ask": "Ask (charges ε)",
        "release": "Release (charges ε)",
        "release_help": "Give each group its ε (the charge is their sum) or its ρ.",
    },
}


def fits(page, locator, language) -> None:
    box = locator.bounding_box()
    width = NEWCOMER_VIEWS[language]["viewport"]["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


@pytest.mark.parametrize("newcomer", ["ja", "en"], indirect=True)
def test_the_rules_tab_installs_the_toolkit_wheel_of_the_data_tab(newcomer, e2e_world, screenshot):
    language, page = newcomer
    wheel = wheel_filename()
    log_in(page, "team-a")
    page.goto(e2e_world.round_url())
    open_tab(page, "rules")
    guide = page.get_by_test_id("scoring-guide")
    install = page.get_by_test_id("install-command")
    expect(install).to_have_text(f'pip install "{wheel}[kit]"')
    fits(page, install, language)
    fits(page, page.get_by_test_id("cli-command"), language)
    assert "source" not in guide.inner_text().lower() and "ソース" not in guide.inner_text()
    assert page_overflow(page) <= 0, "the Rules tab is wider than the screen"
    keep_screenshot(guide, f"words-scoring-guide-{language}")
    screenshot(page, f"words-rules-{language}")

    # Its link leads to the Data tab, whose toolkit button is that wheel.
    with page.expect_navigation():
        page.get_by_test_id("install-how").get_by_role("link").click()
    expect(page.get_by_test_id("tab-data")).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("download-toolkit")).to_have_attribute(
        "href", reverse("toolkit_download", args=[wheel])
    )


@pytest.mark.parametrize("newcomer", ["ja", "en"], indirect=True)
def test_a_dp_level_page_spends_the_budget(newcomer, screenshot):
    language, page = newcomer
    words = DP_WORDS[language]
    world = build_dp_world(slug=f"dpwords{language}", password=PASSWORD)
    log_in(page, world.users["a"].username)
    page.goto(reverse("dp:level", args=[world.competition.slug, world.round.slug, "eps-1"]))
    expect(page.get_by_test_id("dp-query-submit")).to_have_text(words["ask"])
    expect(page.get_by_test_id("dp-release-submit")).to_have_text(words["release"])
    expect(page.get_by_test_id("dp-release")).to_contain_text(words["release_help"])
    fits(page, page.get_by_test_id("dp-query-submit"), language)
    assert "課金" not in page.inner_text("body")
    assert page_overflow(page) <= 0, "the level page is wider than the screen"
    screenshot(page, f"words-dp-level-{language}")
    open_tab(page, "rules")
    assert "課金" not in page.inner_text("body")
    assert page_overflow(page) <= 0, "the DP Rules tab is wider than the screen"
    screenshot(page, f"words-dp-rules-{language}")
