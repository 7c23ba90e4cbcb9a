"""The console's round page follows a freeze by itself: while the operation and the built-in
attacks are under way it polls the round's live version (304 while nothing moves) and
reloads when a job of the round moved; once nothing is under way it polls nothing."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.pwscup2015 import services
from pwscup.pwscup2015.models import Target
from tests.e2e.helpers import log_in
from tests.pwscup.factories import run_operations, scored

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_the_console_round_page_follows_a_freeze_without_a_manual_reload(web, e2e_world):
    page, world = web, e2e_world
    scored(world, "a", seed=1)
    scored(world, "c", seed=3)
    services.round_freeze_request(round=world.round, requested_by=world.organizer)
    polls = []
    page.on(
        "response",
        lambda r: polls.append(r.status) if "/live/round/" in r.url else None,
    )
    log_in(page, "organizer")
    page.goto(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    panel = page.get_by_test_id("operations")
    expect(panel).to_contain_text("Queued")
    page.evaluate("window.__marked = true")
    # The freeze waits for a worker: the page asks, and nothing moved (304).
    with page.expect_response(lambda r: "/live/round/" in r.url and r.status == 304):
        pass
    assert 200 not in polls, polls
    # A worker runs the freeze: the next poll is a 200 and the page reloads itself.
    with page.expect_navigation(timeout=15_000):
        run_operations()
    assert page.evaluate("window.__marked === undefined"), "the page was not reloaded"
    assert 200 in polls, polls
    expect(panel).to_contain_text("Finished")
    # The built-in attacks are scored: the page follows, then, with nothing under way,
    # stops asking.
    for target in Target.objects.filter(round=world.round):
        services.target_builtin_score(target_id=target.pk)
    expect(page.get_by_test_id("live-operations")).to_have_attribute(
        "data-pending", "0", timeout=20_000
    )
    settled = len(polls)
    page.wait_for_timeout(2500)
    assert len(polls) == settled, polls[settled:]
