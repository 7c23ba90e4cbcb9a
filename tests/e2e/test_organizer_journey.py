"""The organizer runs the round from the admin: freeze, then publish the results.

The organizer is what ``load_demo`` makes: staff in the organizers' group, not a superuser.
"""

from pathlib import Path

import pytest
from playwright.sync_api import expect

from pwscup.accounts.services import organizer_grant
from pwscup.pwscup2015.models import Pwscup2015Round, RoundOperation, Target
from pwscup.submissions.models import Status
from tests.e2e.helpers import (
    log_in,
    reload_page,
    submit_anonymization,
    wait_for_builtin_attacks,
)
from tests.support import noisy_copy, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def run_round_action(page, round_pk: int, action: str) -> None:
    page.goto("/admin/competitions/round/")
    page.check(f"input[name=_selected_action][value='{round_pk}']")
    page.select_option("select[name=action]", action)
    with page.expect_navigation():
        page.click("button[name=index]")


def wait_for_operation(world, kind: str) -> None:
    """Wait until the worker has finished the round's ``kind`` operation."""
    wait_for(
        lambda: RoundOperation.objects.filter(
            round=world.round, kind=kind, status=Status.FINISHED
        ).exists(),
        timeout=120,
        what=f"the {kind} operation",
    )


def test_organizer_freezes_and_publishes_from_the_admin(
    web, e2e_world, celery_worker_process, screenshot
):
    page, world = web, e2e_world
    organizer_grant(user=world.organizer, competition=world.competition)
    world.organizer.refresh_from_db()
    assert world.organizer.is_staff and not world.organizer.is_superuser
    for letter, seed in (("a", 1), ("c", 3)):
        assert submit_anonymization(
            world, letter, noisy_copy(world.original, seed=seed)
        ).status == (Status.FINISHED)
    log_in(page, "organizer")

    run_round_action(page, world.round.pk, "freeze")
    # The request returns at once; the organizer follows the freeze on the round's page.
    expect(page.locator("ul.messagelist")).to_contain_text(f"{world.round}: freeze started.")
    page.click("ul.messagelist a:has-text('Follow its progress')")
    wait_for_operation(world, "freeze")
    reload_page(page)
    expect(page.get_by_test_id("operation-freeze")).to_contain_text("Finished — 2 of 2 done")
    screenshot(page, "organizer-freeze-progress-en")
    world.round.refresh_from_db()
    assert world.round.pwscup2015.frozen_at is not None
    assert sorted(
        Target.objects.filter(round=world.round).values_list("team__slug", flat=True)
    ) == [
        "teamA",
        "teamC",
    ]
    wait_for_builtin_attacks(world)

    # Before publication the organizer already sees the matrix, marked as unpublished.
    page.goto(world.round_url() + "matrix/")
    expect(page.get_by_test_id("matrix-col-teamA")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Not published")

    run_round_action(page, world.round.pk, "publish_results")
    expect(page.locator("ul.messagelist")).to_contain_text("publication of the results started.")
    wait_for_operation(world, "publish")
    assert Pwscup2015Round.objects.get(round_id=world.round.pk).results_published
    page.goto(world.round_url() + "final/")
    expect(page.get_by_test_id("final-row-teamA")).to_be_visible()
    expect(page.get_by_test_id("final-row-teamC")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("Not published")
    screenshot(page, "organizer-final-en")

    # The round form's "Currently:" link downloads the original (a checked download).
    page.goto(f"/admin/competitions/round/{world.round.pk}/change/")
    with page.expect_download() as download:
        page.click(f"a[href='/admin/competitions/round/{world.round.pk}/original/']")
    assert Path(download.value.path()).read_bytes() == world.original
