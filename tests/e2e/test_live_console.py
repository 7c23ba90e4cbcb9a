"""The console's round page follows a freeze by itself: while the operation and the built-in
attacks are under way it polls the round's live version (304 while nothing moves) and
reloads when a job of the round moved; once nothing is under way it polls nothing."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.pwscup2015 import services
from tests.e2e.helpers import SCORING_TIMEOUT, log_in, worker_paused
from tests.pwscup.factories import scored

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_console_round_page_follows_a_freeze_without_a_manual_reload(
    web, e2e_world, celery_worker_process
):
    page, world = web, e2e_world
    scored(world, "a", seed=1)
    scored(world, "c", seed=3)
    polls = []
    page.on(
        "response",
        lambda r: polls.append(r.status) if "/live/round/" in r.url else None,
    )
    # The page's timers run on Playwright's clock (time flows as usual): the settled page's
    # silent span below is run through at once instead of waited out.
    page.clock.install()
    log_in(page, "organizer")
    with worker_paused(celery_worker_process):
        services.round_freeze_request(round=world.round, requested_by=world.organizer)
        page.goto(reverse("console:round", args=[world.competition.slug, world.round.slug]))
        panel = page.get_by_test_id("operations")
        expect(panel).to_contain_text("Queued")
        page.evaluate("window.__marked = true")
        # The freeze waits for a worker: the page asks, and nothing moved (304).
        with page.expect_response(lambda r: "/live/round/" in r.url and r.status == 304):
            pass
        assert 200 not in polls, polls
    # The worker runs the freeze, then the built-in attacks: the page reloads itself as
    # they move, and ends showing both done, with nothing under way any more.
    expect(panel).to_contain_text("Finished", timeout=SCORING_TIMEOUT * 1000)
    expect(page.get_by_test_id("live-operations")).to_have_attribute(
        "data-pending", "0", timeout=SCORING_TIMEOUT * 1000
    )
    assert page.evaluate("window.__marked === undefined"), "the page was not reloaded"
    assert 200 in polls, polls
    expect(panel).to_contain_text("2 of 2 targets scored")
    settled = len(polls)
    page.clock.run_for(2_500)  # the page's 2.5 s, then the time for an answer to land
    page.wait_for_timeout(1_500)
    assert len(polls) == settled, polls[settled:]
