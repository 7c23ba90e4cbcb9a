"""Scores appear on the round page by themselves, the polls of an unchanged job cost a 304
(the team's live version, static/live.js), the fragment is fetched only when the version
moved, a form that arrived in a fragment posts with the page's CSRF token, and a page with
nothing pending polls nothing. Nothing is timed here (see benchmarks/bench_rush.py for the figures)."""

import pytest
from playwright.sync_api import expect

from pwscup.core.templatetags.pwscup_tags import score
from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.e2e.helpers import SCORING_TIMEOUT, log_in, open_tab, run_clock_until, worker_paused
from tests.pwscup.factories import scored
from tests.support import noisy_copy

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

HIDE = """hidden => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_scores_appear_without_a_reload_and_an_idle_page_polls_nothing(
    web, e2e_world, celery_worker_process, tmp_path
):
    world, page = e2e_world, web
    polls = []  # (status) of every poll of the team's live version
    fragments = []  # (status) of every fetch of the jobs fragment
    page.on(
        "response",
        lambda response: (
            polls.append(response.status)
            if "/live/team/" in response.url
            else fragments.append(response.status)
            if "fragment=1" in response.url
            else None
        ),
    )
    # An earlier scored upload: final until the new one is scored, then it gets a "Make
    # final" button, in a fragment.
    earlier = scored(world, "a", seed=3)
    # The page's timers run on Playwright's clock: time flows as usual, and the spans below in
    # which the page must ask nothing are run through at once instead of waited out.
    page.clock.install()
    log_in(page, "team-a")
    page.goto(world.round_url())
    open_tab(page, "submit")
    valid = tmp_path / "teamA_anonymized.csv"
    valid.write_bytes(noisy_copy(world.original, seed=4))
    with worker_paused(celery_worker_process):
        page.set_input_files("[data-testid=upload-form] input[type=file]", str(valid))
        with page.expect_navigation():
            page.get_by_test_id("upload-submit").click()
        page.evaluate("window.__sameDocument = true")
        upload = AnonymizationSubmission.objects.filter(team=world.teams["a"]).latest("pk")
        row = page.get_by_test_id(f"submission-{upload.pk}")
        expect(row).to_have_attribute("data-status", "queued")
        # The page came with a "being scored" notice: its first poll carries no ETag, so the
        # fragment is fetched once (a job that ended before the page was drawn resolves its
        # notice). Then, while the job waits, the page keeps asking (about once a second);
        # the unchanged version comes back 304, and no fragment is fetched for it.
        # Counted, not timed: the page's own polls are waited for (a busy machine slows
        # their pace, never their answers), their timers run on the page's clock.
        run_clock_until(page, lambda: len(polls) >= 3, what="third poll of the live version")
        assert polls[:1] == [200] and fragments == [200], (polls, fragments)
        assert len(polls) >= 3 and set(polls[1:]) == {304}, polls
        # A background tab asks nothing while the job waits, and asks again once shown.
        page.evaluate(HIDE, True)
        page.wait_for_timeout(1_500)  # a poll already on its way may still land
        hidden_at = len(polls)
        # Four polls' worth at the page's pace: the page's clock moves on 4 s, firing every
        # timer due on the way (a poll among them would be sent), then the time for its answer.
        page.clock.run_for(4_000)
        page.wait_for_timeout(1_500)
        assert len(polls) == hidden_at, polls[hidden_at:]
        with page.expect_response(lambda r: "/live/team/" in r.url, timeout=10_000):
            page.evaluate(HIDE, False)
    expect(row).to_have_attribute("data-status", "finished", timeout=SCORING_TIMEOUT * 1000)
    done = AnonymizationSubmission.objects.get(pk=upload.pk)
    assert done.status == Status.FINISHED
    expect(row.locator('td[data-metric="U1"]')).to_have_text(score(done.scores["U1"]))
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    assert 200 in polls and 200 in fragments, (polls, fragments)
    # Nothing pending any more: the page stops polling.
    settled = len(polls) + len(fragments)
    page.clock.run_for(2_500)  # as above: the page's 2.5 s, then the time for an answer
    page.wait_for_timeout(1_500)
    assert len(polls) + len(fragments) == settled, (polls, fragments)
    # The "Make final" form came in a fragment without a token of its own: the script gave
    # it the page's, and it posts (a refused token would answer 403).
    final = page.get_by_test_id(f"submission-{earlier.pk}").get_by_test_id("make-final")
    with page.expect_navigation():
        final.click()
    expect(page.locator(".messages")).to_contain_text(earlier.label)
    assert AnonymizationSubmission.objects.get(pk=earlier.pk).is_selected
