"""Chromium keeps the pages every participant sees alike and asks about them again
(``pwscup.accounts.conditional``): a team member opens the round's overview, goes away and
comes back; the browser sends the ETag it kept, the server answers 304, and the page shown
is the whole page, whose forms still post. The Submit tab, with the team's own uploads, is
never kept: it is downloaded every time."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import expect

from pwscup.kinds.tabs import SUBMIT, tab_url
from tests.e2e.helpers import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def _documents(page) -> list:
    """(path, If-None-Match sent, status) of every page the browser loads from now on."""
    seen = []

    def record(response):
        if response.request.resource_type == "document":
            headers = response.request.all_headers()
            seen.append(
                (urlparse(response.url).path, headers.get("if-none-match"), response.status)
            )

    page.on("response", record)
    return seen


def _statuses_on_the_wire(page) -> list:
    """(path, status) of every document as the server answered it (DevTools' raw response
    of each request): a revalidated page is a 304 there, while Playwright reports the kept
    copy the browser shows, a 200."""
    wire, documents = [], {}
    devtools = page.context.new_cdp_session(page)

    def sent(event):
        if event.get("type") == "Document":
            documents[event["requestId"]] = urlparse(event["request"]["url"]).path

    def answered(event):
        if event["requestId"] in documents:
            wire.append((documents[event["requestId"]], event["statusCode"]))

    devtools.on("Network.requestWillBeSent", sent)
    devtools.on("Network.responseReceivedExtraInfo", answered)
    devtools.send("Network.enable")
    return wire


def _recorded(page, what: list, count: int) -> list:
    """``what`` once it holds ``count`` entries: Playwright hands a navigation's events to
    their listeners after ``goto`` returns (on a busy machine, well after), so the list is
    read only once the page's own events for every navigation have arrived; the Playwright
    loop runs while it waits (``wait_for_timeout``), a Python ``sleep`` would block it."""
    for _ in range(200):  # 10 s: a lost event, not a slow one, fails
        if len(what) >= count:
            break
        page.wait_for_timeout(50)
    return what


def test_the_overview_is_kept_revalidated_and_still_works(web, e2e_world):
    page = web
    log_in(page, "team-a")
    overview = e2e_world.round_url()
    seen, wire = _documents(page), _statuses_on_the_wire(page)
    first = page.goto(overview)
    assert first.status == 200
    kept = first.headers["etag"]
    assert "no-cache" in first.headers["cache-control"]
    page.goto("/")
    again = page.goto(overview)
    # Asked again with the kept ETag, answered 304: the browser shows its kept copy.
    seen_all = [(path, etag) for path, etag, _status in _recorded(page, seen, 3)]
    assert (overview, kept) in seen_all, seen
    assert _recorded(page, wire, 3).count((overview, 304)) == 1, wire
    assert again.ok and again.headers["etag"] == kept
    expect(page.get_by_test_id("now")).to_be_visible()
    expect(page.locator("h1")).to_have_text(e2e_world.round.name)
    # The kept copy's forms carry tokens the server still takes: switch the language.
    page.get_by_test_id("lang-ja").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_test_id("lang-ja")).to_have_class("link current")


def test_the_submit_tab_is_never_kept(web, e2e_world):
    page = web
    log_in(page, "team-a")
    submit = tab_url(e2e_world.round, SUBMIT)
    seen = _documents(page)
    first = page.goto(submit)
    assert "no-store" in first.headers["cache-control"]
    page.goto("/")
    page.goto(submit)
    asked = [(etag, status) for path, etag, status in _recorded(page, seen, 3) if path == submit]
    assert asked == [(None, 200), (None, 200)], seen
