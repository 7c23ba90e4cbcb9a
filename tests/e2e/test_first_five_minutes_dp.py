"""A newcomer's first five minutes in a DP round (issue 23), following only the pages: from the
home page (the one address typed) to the competition and the round, sign-up from the round's
own links, a team, the Overview, the Data tab's sample estimate, the Rules, the Submit tab, a
level, the upload of the sample and its verdict from the real worker, and the Results tab.
In Japanese on a 390 px phone and in English at 1280 px, each tab photographed."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    PASSWORD,
    SCORING_TIMEOUT,
    create_team_from_round,
    open_tab,
    round_from_home,
    sign_up_from_round,
)
from tests.e2e.test_phone_width import page_overflow
from tests.pwscup.dp_world import MOVIELENS_CONFIG, build_dp_world, movielens_csv

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

WORDS = {
    "ja": {"plain": "非公開テーブル", "now": "いまやること", "accepted": "形式 OK（評価対象）"},
    "en": {"plain": "hidden table", "now": "What to do now", "accepted": "format OK, counts"},
}


@pytest.mark.parametrize("newcomer", ["ja", "en"], indirect=True)
def test_a_newcomer_signs_up_and_has_a_first_estimate_accepted(
    newcomer, celery_worker_process, screenshot, tmp_path
):
    lang, page = newcomer
    words = WORDS[lang]
    world = build_dp_world(
        slug=f"dpfirst{lang}", table=movielens_csv(), config=MOVIELENS_CONFIG, password=PASSWORD
    )
    shot = f"first-{lang}"

    # The home page is the only address typed; the rest is clicked.
    round_from_home(page, world.competition.slug, world.round.slug)
    round_url = page.url
    expect(page.get_by_test_id("tab-overview")).to_have_attribute("aria-current", "page")
    expect(page.get_by_test_id("dp-overview")).to_contain_text(words["plain"])
    screenshot(page, f"{shot}-0-visitor-overview")

    # Sign up from the round's own "Take part" box, and come back to the round.
    username = f"newcomer-{lang}"
    sign_up_from_round(page, username, "a-long-password-5")
    assert page.url == round_url

    # A team of one, from the same box; the team page leads back to the round.
    create_team_from_round(page, f"First Steps {lang}", world.round.slug, captain=username)

    # Overview: the game in plain words, the flow, what to do now.
    now = page.get_by_test_id("now")
    expect(now).to_contain_text(words["now"])
    expect(page.get_by_test_id("flow")).to_be_visible()
    expect(page.get_by_test_id("dp-paper-words")).to_be_visible()
    assert page_overflow(page) <= 0, "the overview is wider than the screen"
    screenshot(page, f"{shot}-1-overview")

    # "What to do now" points at the Data tab and its sample estimate.
    with page.expect_navigation():
        now.get_by_test_id("now-1").click()
    expect(page.get_by_test_id("tab-data")).to_have_attribute("aria-current", "page")
    with page.expect_download() as download:
        page.get_by_test_id("dp-sample-download").click()
    sample = tmp_path / download.value.suggested_filename
    download.value.save_as(sample)
    assert sample.name == f"{world.round.slug}_sample_estimate.csv"
    assert sample.read_text().startswith("target,gender,age,count\n")
    assert page_overflow(page) <= 0, "the Data tab is wider than the screen"
    screenshot(page, f"{shot}-2-data")

    open_tab(page, "rules")
    expect(page.get_by_test_id("dp-example-l2")).to_contain_text("3.162")
    assert page_overflow(page) <= 0, "the Rules tab is wider than the screen"
    screenshot(page, f"{shot}-3-rules")

    # Submit: the levels first; open one and upload the sample as it is.
    open_tab(page, "submit")
    expect(page.get_by_test_id("dp-level-eps-1")).to_be_visible()
    assert page_overflow(page) <= 0, "the Submit tab is wider than the screen"
    screenshot(page, f"{shot}-4-submit")
    with page.expect_navigation():
        page.get_by_test_id("dp-level-link-eps-1").click()
    expect(page.get_by_test_id("tab-submit")).to_have_attribute("aria-current", "page")
    page.set_input_files("[data-testid=dp-estimate-form] input[type=file]", str(sample))
    with page.expect_navigation():
        page.get_by_test_id("dp-estimate-submit").click()
    expect(page.get_by_test_id("message").first).to_contain_text("#1")
    # The page reloads itself while the worker checks the file, then shows its verdict.
    verdict = page.get_by_test_id("dp-estimate-list").locator("[data-status=finished]")
    expect(verdict).to_have_text(words["accepted"], timeout=SCORING_TIMEOUT * 1000)
    assert page_overflow(page) <= 0, "the level page is wider than the screen"
    screenshot(page, f"{shot}-5-level")

    open_tab(page, "results")
    expect(page.get_by_test_id("dp-result-eps-1").locator("[data-status=finished]")).to_have_text(
        words["accepted"]
    )
    expect(page.get_by_test_id("dp-hidden")).to_be_visible()  # no score before the close
    assert page_overflow(page) <= 0, "the Results tab is wider than the screen"
    screenshot(page, f"{shot}-6-results")

    open_tab(page, "overview")  # what to do now has moved on: the next level
    expect(page.get_by_test_id("now")).to_contain_text("eps-4")
