"""The team's "Your scores over time" charts follow the jobs like the rest of the round page:
when the first upload is scored the chart is drawn without a reload, for the metrics the
team chose."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import SCORING_TIMEOUT, log_in, open_tab, worker_paused
from tests.support import noisy_copy

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def test_the_history_chart_appears_when_the_first_upload_is_scored(
    web, e2e_world, celery_worker_process, tmp_path, screenshot
):
    world, page = e2e_world, web
    log_in(page, "team-a")
    page.goto(world.round_url())
    open_tab(page, "results")
    charts = page.get_by_test_id("history-chart")
    expect(charts).to_contain_text("No scored submission to draw yet.")
    upload = tmp_path / "teamA_anonymized.csv"
    upload.write_bytes(noisy_copy(world.original, seed=1))
    with worker_paused(celery_worker_process):
        open_tab(page, "submit")
        page.set_input_files("[data-testid=upload-form] input[type=file]", str(upload))
        with page.expect_navigation():
            page.get_by_test_id("upload-submit").click()
        expect(page.get_by_test_id("jobs")).to_have_attribute("data-pending", "1")
        # The charts are on the Results tab, which follows the jobs as Submit does.
        open_tab(page, "results")
        expect(page.get_by_test_id("jobs")).to_have_attribute("data-pending", "1")
        # The team picks other metrics while the upload waits: the live charts keep them.
        page.get_by_test_id("history-controls").locator('input[value="U4"]').uncheck()
        page.get_by_test_id("history-controls").locator('input[value="U1"]').check()
        with page.expect_navigation():
            page.get_by_test_id("history-controls").locator("button[type=submit]").click()
        expect(charts).to_contain_text("No scored submission to draw yet.")
        page.evaluate("window.__sameDocument = true")
    expect(page.get_by_test_id("jobs")).to_have_attribute(
        "data-pending", "0", timeout=SCORING_TIMEOUT * 1000
    )
    expect(charts.get_by_test_id("history-U1").locator("circle.point")).to_have_count(1)
    expect(charts.get_by_test_id("history-E3").locator("circle.point")).to_have_count(1)
    expect(charts.get_by_test_id("history-U4")).to_have_count(0)
    expect(charts).not_to_contain_text("No scored submission to draw yet.")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    charts.scroll_into_view_if_needed()
    screenshot(page, "live-history-chart-en")
