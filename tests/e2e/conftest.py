"""Browser fixtures: Debian's Chromium driven by Playwright against ``live_server``.

The scoring is done by the real Celery worker of ``tests/conftest.py``; the data are
built with the platform's services, exactly as an organizer's actions would.
"""

import os
from pathlib import Path

import pytest

from tests.e2e.helpers import NEWCOMER_VIEWS, PASSWORD, keep_screenshot, log_in_by_cookie
from tests.support import build_world

# Playwright's sync API runs an event loop in this thread; Django's ORM refuses to run
# inside one unless told that it is safe (it is: nothing else runs on that loop).
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="session")
def chromium():
    """One headless Chromium for the whole session (never downloaded by Playwright)."""
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium package")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture
def web(chromium, live_server):
    """A fresh browser context (no cookies) and page, in English, on the live server."""
    context = chromium.new_context(
        base_url=live_server.url,
        locale="en-US",
        accept_downloads=True,
        viewport={"width": 1366, "height": 900},
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    # The Content-Security-Policy allows no inline script or style: the browser reports each
    # blocked one on the console, and a journey that triggers one fails.
    blocked = []
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and blocked.append(message.text),
    )
    try:
        yield page
    finally:
        context.close()
    assert blocked == [], f"the Content-Security-Policy blocked {len(blocked)}: {blocked[:3]}"


@pytest.fixture
def newcomer(chromium, live_server, request):
    """``(language, page)``: a fresh browser in the parameter's language and size
    (``NEWCOMER_VIEWS``; parametrize with ``indirect=True``), downloads allowed; fails the
    test if the Content-Security-Policy blocked anything on the way."""
    language = request.param
    context = chromium.new_context(
        base_url=live_server.url, accept_downloads=True, **NEWCOMER_VIEWS[language]
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    blocked = []
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and blocked.append(message.text),
    )
    try:
        yield language, page
    finally:
        context.close()
    assert blocked == [], f"the Content-Security-Policy blocked {len(blocked)}: {blocked[:3]}"


@pytest.fixture
def cookie_log_in(live_server):
    """``cookie_log_in(page, username)``: ``log_in_by_cookie`` on the live server, for a test
    whose subject is a page and not the log-in form (which costs a page load and a post)."""
    return lambda page, username: log_in_by_cookie(page, live_server.url, username)


@pytest.fixture
def screenshot():
    """``take(page, name)``: the whole page's picture, kept when ``PWSCUP_E2E_SCREENSHOTS``
    names a folder (``tests.e2e.helpers.keep_screenshot``)."""

    def take(page, name: str) -> Path | None:
        return keep_screenshot(page, name, full_page=True)

    return take


@pytest.fixture
def e2e_world(transactional_db):
    """One round over the first Adult rows with a public leaderboard; accounts ``team-a``,
    ``team-b``, ``team-c`` and ``organizer``, all with the password ``PASSWORD``."""
    return build_world(
        slug="e2e", username=lambda slug, who: who, password=PASSWORD, leaderboard_public=True
    )
