"""A newcomer's first five minutes in a PWSCup 2015 round, following only the pages: from the
home page (the one address typed) to the competition, the round, a sign-up from the round's
own links, a new team, the Overview, the Data tab's sample submission, and that sample
uploaded on the Submit tab and scored there without a reload — in Japanese on a phone
(390 px) and in English on a laptop (1280 px). Every tab is saved as a screenshot."""

import io

import pandas as pd
import pytest
from playwright.sync_api import expect

import scoring
from pwscup.accounts.models import Team
from pwscup.pwscup2015.models import AnonymizationSubmission
from tests.e2e.helpers import (
    NEWCOMER_VIEWS,
    SCORING_TIMEOUT,
    create_team_from_round,
    open_tab,
    round_from_home,
    sign_up_from_round,
)
from tests.e2e.test_phone_width import page_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# What the reader sees on the way, in each language (the Japanese from locale/ja).
TEXT = {
    "en": {
        "overview": "Overview",
        "game": "re-identification",
        "now": "Download your data and the kit.",
        "sample": "it is not a good anonymization",
        "finished": "Finished",
        "scored": "Upload #1 is scored.",
        "team": "Night Owls",
    },
    "ja": {
        "overview": "概要",
        "game": "再識別",
        "now": "データとキットをダウンロードしましょう。",
        "sample": "良い匿名加工ではありません",
        "finished": "完了",
        "scored": "アップロード #1 の採点が完了しました。",
        "team": "夜ふかし",
    },
}


@pytest.mark.parametrize("newcomer", ["ja", "en"], indirect=True)
def test_a_newcomer_reaches_a_scored_sample_by_following_the_pages(
    newcomer, e2e_world, celery_worker_process, screenshot, tmp_path
):
    language, page = newcomer
    world, text = e2e_world, TEXT[language]
    width = NEWCOMER_VIEWS[language]["viewport"]["width"]

    def shot(name: str) -> None:
        assert page_overflow(page) <= 0, f"{name} is wider than the screen"
        screenshot(page, f"first5-{language}-{name}")

    # The home page is the only address typed; the rest is clicking.
    round_from_home(page, world.competition.slug, "r1")
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_test_id("tab-overview")).to_have_text(text["overview"])
    expect(page.get_by_test_id("game")).to_contain_text(text["game"])
    shot("overview-visitor")

    # Sign up from the round's own "take part" box: back on the round, logged in.
    sign_up_from_round(page, f"newcomer-{language}", "a-long-password-5")
    expect(page.get_by_test_id("tab-overview")).to_have_attribute("aria-current", "page")

    # Create a team from the same box, then back to the round through the links.
    create_team_from_round(page, text["team"], "r1", captain=f"newcomer-{language}")
    team = Team.objects.get(name=text["team"])

    # Overview: the game, the flow with the round's step, and what to do now.
    expect(page.get_by_test_id("flow").locator("li[aria-current=step]")).to_have_count(1)
    now = page.get_by_test_id("now")
    expect(now).to_contain_text(text["now"])
    shot("overview")

    # Data: the sample submission, downloaded from its button.
    open_tab(page, "data")
    expect(page.get_by_test_id("sample")).to_contain_text(text["sample"])
    with page.expect_download() as download:
        page.get_by_test_id("download-sample").click()
    sample = tmp_path / download.value.suggested_filename
    download.value.save_as(sample)
    assert sample.name == f"{team.slug}_sample_anonymized.csv"
    shot("data")

    open_tab(page, "rules")
    expect(page.get_by_test_id("worked-example")).to_be_visible()
    shot("rules")

    # Submit: the upload form is first; the sample goes up as it is and is scored on
    # the page by itself.
    open_tab(page, "submit")
    form = page.get_by_test_id("upload-form")
    assert form.bounding_box()["y"] < page.get_by_test_id("attack-phase").bounding_box()["y"]
    box = form.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    form.locator("input[type=file]").set_input_files(str(sample))
    with page.expect_navigation():
        page.get_by_test_id("upload-submit").click()
    page.evaluate("window.__sameDocument = true")
    submission = AnonymizationSubmission.objects.get(team=team)
    row = page.get_by_test_id(f"submission-{submission.pk}")
    expect(row).to_have_attribute("data-status", "finished", timeout=SCORING_TIMEOUT * 1000)
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    expect(row.get_by_test_id("status")).to_have_text(text["finished"])
    expect(page.get_by_test_id("message")).to_have_text(text["scored"])  # the notice too
    submission.refresh_from_db()
    expect(row.locator("td[data-metric]")).to_have_count(len(scoring.METRICS))
    shown = row.locator('td[data-metric="U6"]').inner_text().strip()
    assert shown == str(submission.scores["U6"])
    uploaded = pd.read_csv(io.BytesIO(sample.read_bytes()), dtype=str, keep_default_na=False)
    assert len(uploaded) == len(pd.read_csv(io.BytesIO(world.original)))
    shot("submit")

    open_tab(page, "results")
    expect(page.get_by_test_id(f"submission-{submission.pk}")).to_have_attribute(
        "data-status", "finished"
    )
    expect(page.get_by_test_id("history-charts").locator("circle.point").first).to_be_visible()
    shot("results")
