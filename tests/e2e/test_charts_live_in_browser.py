"""The leaderboard follows the scores by itself: on an open leaderboard page, a new team's
score appears in the table and as a labelled point in the chart when its scoring job
finishes, without a reload; the unchanged polls before it cost a 304, and a hidden tab
polls nothing until it is shown again.

Slow (over 20 s on its own, so its module is scheduled first): three uploads are scored by the
real worker, and a browser follows the page's polls (their timers run on the page's clock, so
the 5–12 s between two polls is not waited out; every poll is a real request).
"""

import pytest
from playwright.sync_api import expect

from pwscup.submissions.models import Status
from tests.e2e.helpers import log_in, run_clock_until, submit_anonymization
from tests.support import noisy_copy

pytestmark = [
    pytest.mark.slow,
    pytest.mark.e2e,
    pytest.mark.worker,
    pytest.mark.django_db(transaction=True),
]

HIDE = """hidden => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_new_score_appears_on_an_open_leaderboard_without_a_reload(
    web, e2e_world, celery_worker_process, screenshot
):
    page, world = web, e2e_world
    for seed, letter in enumerate("ab", start=1):
        done = submit_anonymization(world, letter, noisy_copy(world.original, seed=seed))
        assert done.status == Status.FINISHED, done.message
    polls = []  # the status of every poll of the leaderboard's live part
    page.on(
        "response",
        lambda response: polls.append(response.status) if "fragment=1" in response.url else None,
    )
    log_in(page, "team-a")
    page.set_viewport_size({"width": 1280, "height": 900})
    # The page's timers run on Playwright's clock: time flows as usual, and the page's polls
    # (5 s apart, then slower after each unchanged answer) and the hidden tab's two polls'
    # worth below are run through at once instead of waited out.
    page.clock.install()
    page.goto(world.round_url() + "leaderboard/?x=U1")
    page.evaluate("window.__sameDocument = true")
    scatter = page.get_by_test_id("scatter")
    expect(scatter.locator("text.label")).to_have_count(2)
    expect(page.get_by_test_id("row-teamC")).to_have_count(0)
    # Nothing changed yet: the page's polls come back 304 (the second one sends an ETag).
    run_clock_until(page, lambda: 304 in polls, what="poll answered 304")

    done = submit_anonymization(world, "c", noisy_copy(world.original, seed=3))
    assert done.status == Status.FINISHED, done.message
    # The page's next poll brings the new row (the job has finished: its score is kept).
    run_clock_until(
        page, lambda: page.get_by_test_id("row-teamC").count() == 1, what="row of team C"
    )
    expect(page.get_by_test_id("row-teamC")).to_be_visible()
    expect(scatter.locator("text.label")).to_have_count(3)
    expect(scatter.locator('circle.point[data-team="teamC"]')).to_have_count(1)
    expect(page.get_by_test_id("scatter-x-label")).to_have_attribute("data-axis", "U1")
    expect(page.get_by_test_id("leaderboard-status")).to_contain_text("Updated")
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    assert 304 in polls and 200 in polls, polls
    screenshot(page, "leaderboard-live-en-1280")

    # Sorting still works on the table that arrived in the fragment.
    header = page.get_by_test_id("leaderboard").locator("thead th").nth(1)
    header.click()
    expect(header).to_have_attribute("aria-sort", "ascending")

    # A tab shown again asks at once and then every 5 s; hidden, it asks nothing …
    with page.expect_response(lambda r: "fragment=1" in r.url, timeout=10_000):
        page.evaluate(HIDE, False)
    page.evaluate(HIDE, True)
    page.wait_for_timeout(1_500)  # a poll already on its way may still land
    hidden_at = len(polls)
    # Two polls' worth at the shown tab's pace: the page's clock moves on 12 s, firing every
    # timer due on the way (a poll among them would be sent), then the time for its answer.
    page.clock.run_for(12_000)
    page.wait_for_timeout(1_500)
    assert len(polls) == hidden_at, polls[hidden_at:]
    # … until it is shown again.
    with page.expect_response(lambda r: "fragment=1" in r.url, timeout=10_000):
        page.evaluate(HIDE, False)
