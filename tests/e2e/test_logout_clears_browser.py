"""On a classroom's shared computer, once team A has logged out and team B has logged in,
Back never shows A's pages (docs/operations.md, "Log-out").

Chromium keeps the pages every participant sees alike (a round's overview, its leaderboard:
``pwscup.accounts.conditional``) in two places: its HTTP cache, which a history navigation
reads without asking the server, and its back/forward cache, which restores the very page,
scripts and all, without a request. Playwright turns the back/forward cache off
(``--disable-back-forward-cache``); this module's browser has it on, as every user's has, and
the first test checks that it really restores pages. Each page's ``pageshow`` is reported on
the console (``_REPORT``) with the name its header shows at that moment, if visible, and an id
of the report: DevTools replays a restored page's earlier console messages, which are not
shown again.
"""

import json
from urllib.parse import urlparse

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.helpers import log_in

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# Run in every page before its own scripts, so it sees a restored page before they do.
_REPORT = """
addEventListener("pageshow", (event) => {
  const who = document.querySelector("[data-testid=who]");
  console.log("pageshow " + JSON.stringify({
    path: location.pathname,
    persisted: event.persisted,
    who: who && who.checkVisibility() ? who.textContent : null,
    report: crypto.randomUUID(),
  }));
});
"""


@pytest.fixture(scope="module")
def chromium_with_bfcache(chromium):
    """Debian's Chromium with its back/forward cache on (Playwright's default turns it off)."""
    browser = chromium.browser_type.launch(
        executable_path=str(CHROMIUM),
        headless=True,
        args=CHROMIUM_ARGS,
        ignore_default_args=["--disable-back-forward-cache"],
    )
    yield browser
    browser.close()


@pytest.fixture
def classroom(chromium_with_bfcache, live_server):
    """``(page, shown)``: a fresh context of that browser, and the ``pageshow`` reports of its
    page (dicts of ``_REPORT``) as they arrive; fails the test if the Content-Security-Policy
    blocked anything."""
    context = chromium_with_bfcache.new_context(base_url=live_server.url, locale="en-US")
    context.set_default_timeout(30_000)
    context.add_init_script(_REPORT)
    page = context.new_page()
    shown, blocked, reports = [], [], set()

    def listen(message):
        if message.text.startswith("pageshow ") and message.text not in reports:
            reports.add(message.text)
            event = json.loads(message.text.removeprefix("pageshow "))
            del event["report"]
            shown.append(event)
        elif "Content Security Policy" in message.text:
            blocked.append(message.text)

    page.on("console", listen)
    try:
        yield page, shown
    finally:
        context.close()
    assert blocked == [], f"the Content-Security-Policy blocked {len(blocked)}: {blocked[:3]}"


def _documents_on_the_wire(page) -> list:
    """(path, status) of every document request the server answered (DevTools' raw answer:
    a revalidated page is a 304 there); a page restored from a cache makes none."""
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


def _until(page, condition, what: str):
    """Wait for ``condition()``: Playwright hands console and DevTools events to their
    listeners after the action that caused them returns, so they are read once arrived; the
    Playwright loop runs while it waits (``wait_for_timeout``), a ``sleep`` would block it."""
    for _ in range(200):  # 10 s: a lost event, not a slow one, fails
        if condition():
            return
        page.wait_for_timeout(50)
    raise AssertionError(f"never saw {what}")


def _back(page) -> None:
    """The Back button, then wait until the page is shown: a page restored from the
    back/forward cache fires no ``load`` (so Playwright waits for the commit only), and one
    that is asked for again is hidden until its new copy replaces it."""
    page.go_back(wait_until="commit")
    expect(page.locator("body")).to_be_visible()


def test_a_restored_page_is_asked_for_again_and_never_shown(classroom, e2e_world):
    page, shown = classroom
    log_in(page, "team-a")
    overview = e2e_world.round_url()
    wire = _documents_on_the_wire(page)
    first = page.goto(overview)
    assert "no-cache" in first.headers["cache-control"] and first.headers["etag"]
    page.goto("/")
    _back(page)
    # The browser restored the page itself (its back/forward cache is on): no request...
    _until(page, lambda: [e for e in shown if e["persisted"]], "a page restored by Back")
    restored = [e for e in shown if e["persisted"]]
    assert restored == [{"path": overview, "persisted": True, "who": None}], shown
    # ... then asked the server about it: 304, the kept copy is current and shown.
    _until(page, lambda: wire.count((overview, 304)) == 1, f"a 304 for {overview}: {wire}")
    assert wire == [(overview, 200), ("/", 200), (overview, 304)]
    _until(page, lambda: shown[-1]["path"] == overview, "the page shown again")
    assert shown[-1] == {"path": overview, "persisted": False, "who": "team-a"}
    expect(page.get_by_test_id("who")).to_have_text("team-a")


def _log_out(page) -> None:
    """The header's Log out button; its answer tells the browser what to clear."""
    with page.expect_response(reverse("logout")) as logout:
        with page.expect_navigation():
            page.locator("header form[action$='/logout/'] button").click()
    assert logout.value.all_headers()["clear-site-data"] == '"cache", "storage"'


def test_after_a_log_out_and_a_log_in_back_never_shows_the_last_teams_pages(classroom, e2e_world):
    page, shown = classroom
    leaderboard = reverse("leaderboard", args=[e2e_world.competition.slug, e2e_world.round.slug])
    overview = e2e_world.round_url()
    log_in(page, "team-a")
    for kept in (overview, leaderboard):
        assert "no-cache" in page.goto(kept).headers["cache-control"], kept
    _log_out(page)
    log_in(page, "team-b")  # the log-in form still posts: no cookie was cleared
    _until(page, lambda: {"path": "/", "persisted": False, "who": "team-b"} in shown, "B's home")
    since, wire = len(shown), _documents_on_the_wire(page)
    # Back through the history: B's login page, the home page A left, A's leaderboard, A's
    # overview.
    for _ in range(4):
        _back(page)
    assert urlparse(page.url).path == overview
    expect(page.get_by_test_id("who")).to_have_text("team-b")
    _until(page, lambda: shown[-1]["path"] == overview, "the overview shown")
    seen = shown[since:]
    assert "team-a" not in {event["who"] for event in seen}, seen
    # The page A logged out from was still in the back/forward cache (the log-out's answer
    # came while it was the current page, so it entered the cache afterwards): restored
    # hidden, then asked for again. A's overview had been flushed from it by the log-out.
    assert {"path": leaderboard, "persisted": True, "who": None} in seen, seen
    assert seen[-1] == {"path": overview, "persisted": False, "who": "team-b"}, seen
    _until(page, lambda: (overview, 200) in wire, f"the overview asked for: {wire}")
    assert (leaderboard, 200) in wire, wire


def test_without_the_back_forward_cache_back_asks_the_server_for_a_kept_page(web, e2e_world):
    """Playwright's usual browser (no back/forward cache): a history navigation to a kept
    page (``no-cache``) asks the server, whose ETag names the viewer, so B gets B's page
    (this held before ``Clear-Site-Data`` too: it pins the kept pages' ``no-cache``)."""
    page = web
    overview = e2e_world.round_url()
    log_in(page, "team-a")
    assert "no-cache" in page.goto(overview).headers["cache-control"]
    _log_out(page)
    log_in(page, "team-b")  # the log-in form still posts: no cookie was cleared
    wire = _documents_on_the_wire(page)
    for _ in range(3):  # B's login page, the home page A left, A's overview
        page.go_back()
    assert urlparse(page.url).path == overview
    expect(page.get_by_test_id("who")).to_have_text("team-b")
    _until(page, lambda: (overview, 200) in wire, f"the overview asked for: {wire}")
