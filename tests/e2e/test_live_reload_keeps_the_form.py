"""A page that follows the team's jobs by reloading itself (``static/live.js``; here a
sequential round's Submit tab) never reloads under a form being filled in: a file chosen for
the next upload while the last one is checked stays chosen (a reload threw it away, and a
click on the upload button at that moment sent nothing). Once the form is back as the page
drew it, the page reloads and shows the verdict."""

import pytest
from playwright.sync_api import expect

from pwscup.sequential import services
from tests.e2e.helpers import PASSWORD, log_in
from tests.pwscup.seq_web_world import FIXTURES, check, fixture, seq_world, tab, upload_file

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

RELEASE = "zhang_release_1.csv"


def a_poll_saw_a_change(page):
    """Wait for an answer of the live poll (``live/team/``) telling of a change (200, not an
    empty 304); the script has handled the one before it when it sends the next."""
    with page.expect_response(lambda r: r.url.endswith("/live/team/") and r.status == 200):
        pass


def test_a_file_chosen_while_the_last_upload_is_checked_stays_chosen(web):
    world = seq_world(slug="keepform", password=PASSWORD)
    release = services.release_upload(
        sequential=world.sequential,
        team=world.teams["a"],
        user=world.users["a"],
        step=1,
        uploaded_file=upload_file(fixture(RELEASE), "release_1.csv"),
    )
    log_in(web, "keepform-team-a")
    web.goto(tab(world, "submit"))
    expect(web.get_by_test_id("live-reload")).to_have_count(1)  # the page follows the check
    chosen = web.get_by_test_id("upload-form").locator("input[type=file]")
    chosen.set_input_files(str(FIXTURES / RELEASE))
    web.evaluate("() => { window.drawnOnce = true; }")
    check(release)  # the worker's verdict: the team's live version moves
    a_poll_saw_a_change(web)
    a_poll_saw_a_change(web)  # asked again: the first change was seen and the page kept
    assert web.evaluate("() => window.drawnOnce === true")
    assert chosen.evaluate("input => input.files.length") == 1
    # The choice undone: the next change seen reloads the page, which shows the verdict.
    with web.expect_navigation():
        chosen.set_input_files([])
    assert web.evaluate("() => window.drawnOnce === undefined")
    expect(web.get_by_test_id(f"upload-{release.pk}").get_by_test_id("accepted")).to_have_text(
        "Valid"
    )
