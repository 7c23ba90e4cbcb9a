"""Browser journey of the sequential round: a team publishes two steps and reads its risk
table (English and Japanese, desktop and a 390 px phone), under the strict CSP."""

import pytest

from tests.e2e.helpers import (
    PASSWORD,
    assert_whole_on_screen,
    log_in,
    open_tab,
    phone_submit_tab,
    reload_page,
    switch_language,
)
from tests.pwscup.seq_web_world import FIXTURES, attack_phase_world, freeze, run_seq_jobs, seq_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def seq_e2e_world(transactional_db):
    return seq_world(slug="seqe2e", password=PASSWORD)


def upload(page, step: int, name: str) -> None:
    page.select_option("select[name=step]", str(step))
    page.set_input_files("input[name=file]", str(FIXTURES / name))
    with page.expect_navigation():
        page.get_by_test_id("upload-submit").click()


def fits(page, width: int) -> bool:
    return page.evaluate("() => document.documentElement.scrollWidth") <= width


def test_a_team_publishes_two_steps_and_reads_its_risk_table(web, seq_e2e_world, screenshot):
    world = seq_e2e_world
    round_url = f"/c/{world.competition.slug}/{world.round.slug}/"
    log_in(web, "seqe2e-team-a")
    web.goto(round_url)
    open_tab(web, "data")
    assert web.get_by_test_id("download-T1").is_visible()
    assert web.get_by_test_id("download-T2").count() == 0  # online: the future is hidden
    with web.expect_download() as download:
        web.get_by_test_id("download-T1").click()
    assert download.value.suggested_filename == "T1.csv"

    open_tab(web, "submit")
    upload(web, 1, "zhang_release_1.csv")
    assert "Release 1 (#1) is received" in web.get_by_test_id("message").first.inner_text()
    run_seq_jobs()  # what the worker does
    reload_page(web)  # the page's own live script may reload it at the same moment
    assert web.get_by_test_id("accepted").inner_text() == "Valid"

    freeze(world)  # the organizer freezes step 1: step 2 opens
    web.goto(round_url)
    open_tab(web, "data")
    assert web.get_by_test_id("download-T2").is_visible()
    open_tab(web, "submit")
    upload(web, 2, "zhang_release_2_table9.csv")
    run_seq_jobs()
    reload_page(web)  # the page's own live script may reload it at the same moment
    second = world.sequential.releases.get(step=2)
    with web.expect_navigation():
        web.get_by_test_id(f"release-link-{second.pk}").click()
    assert web.get_by_test_id("minv").inner_text().startswith("2")
    table = web.get_by_test_id("risk-table")
    emily = table.get_by_test_id("person-Emily").inner_text()
    assert "0.4" in emily
    screenshot(web, "seq-release-en-desktop")

    web.goto(round_url)
    open_tab(web, "results")
    assert web.get_by_test_id("risk-chart").is_visible()
    assert web.locator("[data-testid=mark-RN_max]").count() == 2
    web.set_viewport_size({"width": 390, "height": 844})
    assert fits(web, 390), "the round page is wider than a 390 px phone"
    screenshot(web, "seq-round-en-phone")
    switch_language(web, "ja")
    assert "リスク" in web.get_by_test_id("latest").inner_text()
    assert fits(web, 390), "the Japanese results tab is wider than a 390 px phone"
    screenshot(web, "seq-round-ja-phone")
    open_tab(web, "data")
    assert "公開データ" in web.get_by_test_id("steps").inner_text()
    assert fits(web, 390), "the Japanese data tab is wider than a 390 px phone"
    open_tab(web, "results")
    web.get_by_test_id("latest-detail").click()
    web.wait_for_load_state()
    assert fits(web, 390), "the Japanese release page is wider than a 390 px phone"
    screenshot(web, "seq-release-ja-phone")


def test_a_rejected_release_names_release_row_and_value(web, seq_e2e_world):
    world = seq_e2e_world
    log_in(web, "seqe2e-team-b")
    freeze(world)  # team B missed step 1: its sequence is incomplete, step 2 refuses
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/")
    open_tab(web, "submit")
    upload(web, 2, "zhang_release_2_table9_as_printed.csv")
    message = web.get_by_test_id("message").first.inner_text()
    assert "no valid release 1" in message


def test_a_rejected_release_s_reason_is_read_whole_on_a_phone(web, seq_e2e_world):
    # The reason sat in the table's narrow "Result" column, most of it past the screen's
    # right edge at 390 px (the table scrolls in its frame): it now has a row of its own,
    # no wider than the screen, as a 2015 round's failed uploads.
    from tests.pwscup.seq_web_world import fixture, publish

    world = seq_e2e_world
    wrong = fixture("zhang_release_1.csv").replace(b"Disease", b"disease", 1)
    rejected = publish(world, "b", 1, wrong)
    assert rejected.status == rejected.Status.FAILED
    phone_submit_tab(web, "seqe2e-team-b", world.round)
    reason = web.get_by_test_id(f"upload-{rejected.pk}").locator(".error")
    assert_whole_on_screen(reason, "gid,pid,Age,Zip,Disease")


def test_the_organizer_reads_the_timeline_freezes_and_reads_the_leaderboard(
    web, seq_e2e_world, screenshot
):
    from tests.pwscup.seq_web_world import fixture, publish

    world = seq_e2e_world
    publish(world, "a", 1, fixture("zhang_release_1.csv"))
    log_in(web, "seqe2e-organizer")
    web.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/")
    timeline = web.get_by_test_id("timeline")
    assert "+5" in timeline.inner_text() and "−5" in timeline.inner_text()
    screenshot(web, "seq-console-en-desktop")
    with web.expect_navigation():
        web.get_by_test_id("seq-freeze").click()  # the confirmation page: nothing frozen yet
    assert (
        "1 of 3 teams have a valid upload of release 1"
        in web.get_by_test_id("freeze-ready").inner_text()
    )
    with web.expect_navigation():
        web.get_by_test_id("confirm").click()
    assert "Release 1 is frozen" in web.get_by_test_id("message").first.inner_text()
    assert "Freeze release 2" in web.get_by_test_id("seq-freeze").inner_text()
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/seq/leaderboard/")
    assert "Team A" in web.get_by_test_id("leaderboard").inner_text()
    web.set_viewport_size({"width": 390, "height": 844})
    switch_language(web, "ja")
    assert "順位付けルール" in web.get_by_test_id("rule").inner_text()
    assert fits(web, 390), "the Japanese leaderboard is wider than a 390 px phone"
    screenshot(web, "seq-leaderboard-ja-phone")
    web.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/")
    assert fits(web, 390), "the Japanese console page is wider than a 390 px phone"
    screenshot(web, "seq-console-ja-phone")


def test_attack_phase_a_team_downloads_a_target_and_uploads_guesses(
    web, transactional_db, screenshot, tmp_path
):

    world = attack_phase_world(slug="seqatk2", password=PASSWORD)
    log_in(web, "seqatk2-team-b")
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/")
    open_tab(web, "submit")
    target = web.get_by_test_id("target-teamA")
    with web.expect_download() as download:
        target.get_by_text("teamA_background.csv").click()
    assert download.value.suggested_filename == "teamA_background.csv"
    path = tmp_path / "teamB_attack_teamA.csv"
    path.write_text("pid,guess\nBob,dyspepsia\nAlice,dyspepsia\nAndy,dyspepsia\nEmily,dyspepsia\n")
    target.locator("input[name=file]").set_input_files(str(path))
    with web.expect_navigation():
        target.locator("button[type=submit]").click()
    assert "(#1) are received" in web.get_by_test_id("message").first.inner_text()
    run_seq_jobs()  # what the worker does
    reload_page(web)  # the page's own live script may reload it at the same moment
    assert "accuracy 0.6000" in web.get_by_test_id("attack-phase").inner_text()
    assert web.get_by_test_id("target-teamB").locator("form").count() == 0  # not its own
    web.set_viewport_size({"width": 390, "height": 844})
    screenshot(web, "seq-attack-en-phone")
    assert fits(web, 390)
