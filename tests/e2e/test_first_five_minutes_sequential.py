"""A newcomer's first five minutes in a sequential-release round, following only the pages: from
the home page (the one address typed) to the competition, the round, a sign-up from the
round's own links, a new team (the round's master is shared by every team, as in a contest
without an attack phase: a new team plays at once), the Overview, the Data tab's sample
release, and that sample uploaded on the Submit tab and checked there by the real worker
(valid, with its numbers) — in Japanese on a phone (390 px) and in English on a laptop
(1280 px). Every tab is saved as a screenshot."""

import pytest
from playwright.sync_api import expect

from pwscup.accounts.models import Team
from pwscup.sequential.models import Release
from tests.e2e.helpers import (
    NEWCOMER_VIEWS,
    PASSWORD,
    SCORING_TIMEOUT,
    create_team_from_round,
    open_tab,
    round_from_home,
    sign_up_from_round,
)
from tests.e2e.test_phone_width import page_overflow
from tests.pwscup.seq_web_world import seq_world

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]

# What the reader sees on the way, in each language (the Japanese from locale/ja).
TEXT = {
    "en": {
        "overview": "Overview",
        "game": "as people join and leave",
        "now": "Download T(1) and the kit",
        "sample": "made from your team's data",
        "valid": "Valid",
        "rules": "2-invariant (MINV = 2)",
        "team": "Night Owls",
    },
    "ja": {
        "overview": "概要",
        "game": "人の加入・離脱とともに",
        "now": "T(1) とキット",
        "sample": "あなたのチームのデータから作ったもの",
        "valid": "有効",
        "rules": "2-不変です（MINV = 2）",
        "team": "夜ふかし",
    },
}


@pytest.fixture
def seq_first_world(transactional_db):
    return seq_world(slug="seqfirst", password=PASSWORD)


@pytest.mark.parametrize("newcomer", ["ja", "en"], indirect=True)
def test_a_newcomer_reaches_a_checked_sample_release_by_following_the_pages(
    newcomer, seq_first_world, celery_worker_process, screenshot, tmp_path
):
    language, page = newcomer
    world, text = seq_first_world, TEXT[language]
    width = NEWCOMER_VIEWS[language]["viewport"]["width"]

    def shot(name: str) -> None:
        assert page_overflow(page) <= 0, f"{name} is wider than the screen"
        screenshot(page, f"seq-first5-{language}-{name}")

    # The home page is the only address typed; the rest is clicking.
    round_from_home(page, world.competition.slug, world.round.slug)
    expect(page.locator("html")).to_have_attribute("lang", language)
    expect(page.get_by_test_id("tab-overview")).to_have_text(text["overview"])
    expect(page.get_by_test_id("game")).to_contain_text(text["game"])
    shot("overview-visitor")

    # Sign up from the round's own "take part" box: back on the round, logged in.
    sign_up_from_round(page, f"seq-newcomer-{language}", "a-long-password-6")
    expect(page.get_by_test_id("tab-overview")).to_have_attribute("aria-current", "page")

    # Create a team from the same box, then back to the round through the links.
    create_team_from_round(page, text["team"], world.round.slug, captain=f"seq-newcomer-{language}")
    team = Team.objects.get(name=text["team"])

    # Overview: the game, the flow with the round's step, and what to do now.
    expect(page.get_by_test_id("flow").locator("li[aria-current=step]")).to_have_count(1)
    expect(page.get_by_test_id("now")).to_contain_text(text["now"])
    shot("overview")

    # Data: the sample release, downloaded from its button.
    open_tab(page, "data")
    expect(page.get_by_test_id("sample")).to_contain_text(text["sample"])
    expect(page.get_by_test_id("download-kit")).to_be_visible()
    with page.expect_download() as download:
        page.get_by_test_id("download-sample").click()
    sample = tmp_path / download.value.suggested_filename
    download.value.save_as(sample)
    assert sample.name == "release_1.csv"
    assert sample.read_bytes().startswith(b"gid,pid,Age,Zip,Disease\n")
    shot("data")

    open_tab(page, "rules")
    expect(page.get_by_test_id("worked-example")).to_contain_text(text["rules"])
    shot("rules")

    # Submit: the upload form is first; the sample goes up as it is and the worker's
    # verdict appears on the page (it reloads itself while the release is checked).
    open_tab(page, "submit")
    form = page.get_by_test_id("upload-form")
    assert form.bounding_box()["y"] < page.get_by_test_id("uploads").bounding_box()["y"]
    box = form.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= width
    form.locator("input[type=file]").set_input_files(str(sample))
    with page.expect_navigation():
        page.get_by_test_id("upload-submit").click()
    release = Release.objects.get(team=team)
    row = page.get_by_test_id(f"upload-{release.pk}")
    expect(row.get_by_test_id("accepted")).to_have_text(
        text["valid"], timeout=SCORING_TIMEOUT * 1000
    )
    release.refresh_from_db()
    assert release.status == Release.Status.FINISHED and release.worker
    expect(row.get_by_test_id("upload-minv")).to_have_text(str(release.results["MINV"]))
    assert release.results["MINV"] >= 2
    expect(row).to_contain_text(f"{release.results['RN_max']:.4f}")
    shot("submit")

    open_tab(page, "results")
    expect(page.get_by_test_id("minv")).to_contain_text("2")
    expect(page.get_by_test_id("risk-chart")).to_be_visible()
    shot("results")
