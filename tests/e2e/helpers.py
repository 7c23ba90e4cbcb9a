"""Helpers for the browser tests (import as ``tests.e2e.helpers``)."""

import contextlib
import os
import signal
from pathlib import Path

from tests.support import World, csv_upload, wait_for

PASSWORD = "e2e-password"
# The pages' pictures, for a person to look at (docs/architecture.md, "Tests"): taken only when
# PWSCUP_E2E_SCREENSHOTS names a folder. No test reads them, and a full-page PNG of a long
# page costs Chromium about 0.7 s of CPU (about 90 places in the browser tests take one).
SCREENSHOTS = (
    Path(os.environ["PWSCUP_E2E_SCREENSHOTS"]) if os.environ.get("PWSCUP_E2E_SCREENSHOTS") else None
)
SCORING_TIMEOUT = 120  # seconds; the worker scores a 200-row round in about a second
# A newcomer's browser (the first-five-minutes tests): Japanese on a phone, English on a laptop.
NEWCOMER_VIEWS = {
    "ja": {"locale": "ja-JP", "viewport": {"width": 390, "height": 844}},
    "en": {"locale": "en-US", "viewport": {"width": 1280, "height": 900}},
}


def keep_screenshot(target, name: str, **options) -> Path | None:
    """Save ``target``'s picture (a page or a locator; Playwright's ``screenshot`` options) as
    ``<name>.png`` under ``SCREENSHOTS`` and return its path; nothing when no folder is named."""
    if SCREENSHOTS is None:
        return None
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    target.screenshot(path=str(path), **options)
    return path


def log_in(page, username: str, password: str = PASSWORD) -> None:
    """Log in through the login form and wait until the home page is shown."""
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    with page.expect_navigation():
        page.click("form.card button[type=submit]")
    assert page.get_by_test_id("who").inner_text() == username


def session_cookie(url: str, username: str) -> dict:
    """A logged-in session of ``username`` for the browser at ``url``, as the log-in form would
    leave it (Django's test client ``force_login``), for ``BrowserContext.add_cookies``."""
    from django.conf import settings
    from django.contrib.auth import get_user_model
    from django.test import Client

    client = Client()
    user = get_user_model().objects.get(username=username)
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": session, "url": url}


def log_in_by_cookie(page, url: str, username: str) -> None:
    """Log in as ``log_in`` does, without the form: the browser is given the session the form
    would leave (``session_cookie``), and the home page is shown and names ``username``. For a
    test whose subject is a page, not the log-in form (its own journeys use the form): the form
    costs a page load and a post more."""
    page.context.add_cookies([session_cookie(url, username)])
    page.goto("/")
    assert page.get_by_test_id("who").inner_text() == username


def reload_page(page, attempts: int = 3) -> None:
    """Reload the page once a job it shows has changed. Its own script (``static/live.js``)
    may reload it at the same moment, having seen the change too: the browser then aborts
    one of the two navigations (``net::ERR_ABORTED``), or, when the two swap the renderer,
    answers the test's reload with "Not attached to an active page". Either way the
    navigation that wins started after the change, so the test waits for it to load and
    reloads once more: a further reload only makes the page fresher, never staler."""
    from playwright.sync_api import Error

    raced = ("ERR_ABORTED", "Not attached to an active page", "interrupted by another")
    for attempt in range(attempts):
        try:
            page.reload()
            return
        except Error as error:
            if attempt == attempts - 1 or not any(words in str(error) for words in raced):
                raise
            page.wait_for_load_state()


def run_clock_until(page, condition, *, what: str, step_ms: int = 1_000, steps: int = 120):
    """Run the page's timers on Playwright's clock (``page.clock.install()`` first) until
    ``condition()`` holds: the clock moves on ``step_ms``, firing each timer due on the way
    (a poll among them is sent to the live server for real), then the Playwright loop runs
    a moment for the answers to land. A page that polls every 5 s, slower after each
    unchanged answer, is then seen polling in a second or two instead of the 5–12 s it would
    be waited for; what it asks and what it is answered are the same. ``steps`` moves of the
    clock at most (two minutes of the page's time by default): a poll that never comes, not
    a slow one, fails."""
    for _ in range(steps):
        if condition():
            return
        page.clock.run_for(step_ms)
        page.wait_for_timeout(100)
    if not condition():
        raise AssertionError(f"the page's clock ran {steps * step_ms / 1000:.0f} s: no {what}")


def open_tab(page, key: str) -> None:
    """Click the round page's tab ``key`` (``pwscup.kinds.tabs``: overview, data, rules,
    submit, results) and wait until it is the current one.

    A click that starts no navigation within 15 s is made once more: in six whole runs
    over three stops, one tab click (of thousands) started none and timed out, twice in
    ``test_round_tabs_scroll_cue.py`` at phone width, with the page loaded and idle and the
    server answering; the cause was not found, and the second click, like every other,
    navigates. Two lost clicks in a row still fail the test."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    tab = page.get_by_test_id(f"tab-{key}")
    for attempt in range(2):
        try:
            with page.expect_navigation(timeout=15_000):
                tab.click()
            break
        except PlaywrightTimeout:
            if attempt:
                raise
    current = page.get_by_test_id(f"tab-{key}").get_attribute("aria-current")
    assert current == "page", f"the {key} tab is not the current one"


def round_from_home(page, competition_slug: str, round_slug: str) -> None:
    """From the home page (the one address a newcomer types) to the round by its links."""
    page.goto("/")
    with page.expect_navigation():
        page.get_by_test_id(f"competition-{competition_slug}").get_by_role("link").click()
    with page.expect_navigation():
        page.get_by_test_id(f"round-{round_slug}").get_by_role("link").first.click()


def sign_up_from_round(page, username: str, password: str) -> None:
    """Sign up through the round page's "take part" box; the form leads back, logged in."""
    with page.expect_navigation():
        page.get_by_test_id("team-register").get_by_role("link").nth(1).click()
    form = page.get_by_test_id("signup-form")
    form.locator("input[name=username]").fill(username)
    form.locator("input[name=email]").fill(f"{username}@example.org")
    form.locator("input[name=password1]").fill(password)
    form.locator("input[name=password2]").fill(password)
    with page.expect_navigation():
        form.locator("button[type=submit]").click()
    assert page.get_by_test_id("who").inner_text() == username


def create_team_from_round(page, name: str, round_slug: str, *, captain: str) -> None:
    """Create a team in the round page's box (its team page lists ``captain``), then back to
    the round by the team page's links (the competition crumb, then the round)."""
    page.get_by_test_id("team-name").fill(name)
    with page.expect_navigation():
        page.get_by_test_id("team-create").click()
    assert page.get_by_test_id(f"member-{captain}").is_visible()
    with page.expect_navigation():
        page.locator("p.crumbs a").first.click()
    with page.expect_navigation():
        page.get_by_test_id(f"round-{round_slug}").get_by_role("link").first.click()


def switch_language(page, code: str) -> None:
    """Use the header's language buttons; the same page comes back in ``code``."""
    with page.expect_navigation():
        page.get_by_test_id(f"lang-{code}").click()
    page.wait_for_function("code => document.documentElement.lang === code", arg=code)


def phone_submit_tab(page, username: str, round_) -> None:
    """``username`` reads ``round_``'s Submit tab on a 390 px phone, in Japanese."""
    log_in(page, username)
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/c/{round_.competition.slug}/{round_.slug}/")
    switch_language(page, "ja")
    open_tab(page, "submit")


def assert_whole_on_screen(locator, text: str) -> None:
    """``locator`` holds ``text`` and lies within the screen's width: not cut at its right
    edge, nor left for the reader to scroll a table's frame to."""
    assert text in locator.inner_text()
    box = locator.bounding_box()
    width = locator.page.viewport_size["width"]
    assert box["x"] >= 0 and box["x"] + box["width"] <= width, box


def submit_anonymization(world: World, letter: str, content: bytes):
    """Create a submission with the service (as the upload view does) and wait for its score."""
    from pwscup.pwscup2015 import services
    from pwscup.pwscup2015.models import AnonymizationSubmission
    from pwscup.submissions.models import Status

    submission = services.anonymization_submission_create(
        phase=world.anonymization,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=csv_upload(content),
    )
    wait_for(
        lambda: AnonymizationSubmission.objects.filter(
            pk=submission.pk, status__in=[Status.FINISHED, Status.FAILED]
        ).exists(),
        timeout=SCORING_TIMEOUT,
        what=f"submission #{submission.pk} to be scored",
    )
    submission.refresh_from_db()
    return submission


@contextlib.contextmanager
def worker_paused(process):
    """Stop the worker (SIGSTOP) so that a new job stays queued, as on a busy platform.

    The worker resumes (SIGCONT) when the block ends, even if the block fails.
    """
    os.kill(process.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(process.pid, signal.SIGCONT)


def wait_for_builtin_attacks(world: World) -> None:
    """Wait until the worker has run the built-in attacks on every target of the round."""
    from pwscup.pwscup2015.models import Target
    from pwscup.submissions.models import Status

    wait_for(
        lambda: (
            not Target.objects.filter(round=world.round)
            .exclude(builtin__status=Status.FINISHED)
            .exists()
        ),
        timeout=SCORING_TIMEOUT,
        what="the built-in attacks on every target",
    )
