"""The scorer round's pages in Chromium as their users see them: a team member and an
organizer who is not a superuser, in English and Japanese, on a laptop (1366 px) and a
phone (390 px). One world for the module: team A uploads its release through the Submit
tab's own form (scored here as the worker scores it) and sees its score; the organizer
opens the attack phase, team A attacks, and the organizer uploads a program version
through the console's form and sees it wait for its build. Then every tab, the console's
round page (the scorer panel) and the creation page, for each role, language and width:
nothing scrolls the page sideways (a wide table scrolls in its own ``.scroll`` box).
Screenshots are kept when ``PWSCUP_E2E_SCREENSHOTS`` names a folder (``scorer-*.png``)."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import PASSWORD, keep_screenshot, log_in_by_cookie, reload_page
from tests.e2e.test_axe_pages import AXE_OPTIONS, AXE_SCRIPT, BLOCKING
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
)
from tests.support import wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

SLUG = "sclook"
VIEWS = {
    ("en", 1366): {"locale": "en-US", "viewport": {"width": 1366, "height": 900}},
    ("en", 390): {"locale": "en-US", "viewport": {"width": 390, "height": 844}},
    ("ja", 1366): {"locale": "ja-JP", "viewport": {"width": 1366, "height": 900}},
    ("ja", 390): {"locale": "ja-JP", "viewport": {"width": 390, "height": 844}},
}
AXE_VIEWS = {("en", 390), ("ja", 1366)}
DETAIL = (
    b"<title>Details</title><p data-testid=detail-text>Fine.</p>"
    b"<script>document.title = 'script ran: ' + document.cookie</script>"
)
TABS = ("", "data/", "rules/", "submit/", "results/")


def sideways(page) -> int:
    """How far the page itself (not a scroll box inside it) is wider than the window."""
    return page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - window.innerWidth"
    )


def violations_of(page, scope: str) -> list[str]:
    """axe-core's serious and critical violations inside ``scope`` (a CSS selector): the
    scorer's own part of the page."""
    results = page.evaluate(
        "([scope, options]) => axe.run({include: [[scope]]}, options)", [scope, AXE_OPTIONS]
    )
    return [
        f"{v['impact']} {v['id']}: {[' '.join(map(str, n['target'])) for n in v['nodes'][:4]]}"
        for v in results["violations"]
        if v["impact"] in BLOCKING
    ]


def new_page(chromium, live_server, view, username: str):
    context = chromium.new_context(base_url=live_server.url, **VIEWS[view])
    context.set_default_timeout(30_000)
    context.add_init_script(script=AXE_SCRIPT)
    page = context.new_page()
    # The pages are what is looked at here, not the log-in form (its own journeys fill it
    # in): a session cookie saves its page load and post in each of the ten contexts.
    log_in_by_cookie(page, live_server.url, username)
    return context, page


def shot(page, name: str) -> None:
    """With ``PWSCUP_E2E_SCREENSHOTS`` set, the whole page, and a long phone page also in screens
    of 1,200 px (to look at them); else nothing (a screenshot costs as much as the visit)."""
    if keep_screenshot(page, f"scorer-{name}", full_page=True) is None:
        return
    width, height = page.evaluate("[window.innerWidth, document.documentElement.scrollHeight]")
    if width < 800 and height > 1600:
        for part, top in enumerate(range(0, height, 1200), start=1):
            clip = {"x": 0, "y": top, "width": width, "height": min(1200, height - top)}
            keep_screenshot(page, f"scorer-{name}-part{part}", full_page=True, clip=clip)


def upload_release_through_the_form(chromium, live_server, world, tmp_path) -> None:
    """Team A, on a phone in English: the Submit tab's form, as a browser posts it; the
    release is scored (here, as the worker does); the page shows its score and its
    detailed results, served in a sandbox."""
    from django.core.files.base import ContentFile

    from pwscup.scorer.models import Release
    from pwscup.scorer.score_text import format_score
    from pwscup.scorer.services import release_score

    base = f"/c/{SLUG}/{world.round.slug}/"
    context, page = new_page(chromium, live_server, ("en", 390), world.users["a"].username)
    try:
        page.goto(base + "submit/")
        release_file = tmp_path / "release.csv"
        release_file.write_bytes(release_bytes(noise=2))
        page.set_input_files("[data-testid=upload-form] input[type=file]", str(release_file))
        with page.expect_navigation():
            page.get_by_test_id("upload-submit").click()
        kept = Release.objects.get(team=world.teams["a"])
        assert page.get_by_test_id("release-1").get_by_test_id("pending").is_visible()
        shot(page, "submit-pending-en-390")
        # Scored here, as a worker would; a worker another test of this process started
        # (shuffled order) may have taken the job first: then it finishes it.
        release_score(release_id=kept.pk)
        wait_for(
            lambda: Release.objects.get(pk=kept.pk).status not in ("queued", "running"),
            what="the release's score",
        )
        kept.refresh_from_db()
        assert kept.status == "finished", kept.status
        # The demo program writes no detailed page: one as a program could write it.
        kept.detail.save("detailed_results.html", ContentFile(DETAIL))
        # The page reloads itself once the release is scored (static/live.js); the test's
        # own reload may race it, which reload_page absorbs.
        reload_page(page)
        row = page.get_by_test_id("release-1")
        expect(row.get_by_test_id("score-utility")).to_have_text(
            format_score(kept.scores["utility"])
        )
        expect(row.get_by_test_id("accepted")).to_be_visible()
        assert sideways(page) <= 0
        shot(page, "submit-scored-en-390")
        detail = row.get_by_test_id("detail").get_attribute("href")
        response = page.request.get(detail)
        assert response.ok
        assert response.headers["content-security-policy"].startswith("sandbox")
        page.goto(detail)
        assert page.get_by_test_id("detail-text").inner_text() == "Fine."
        assert page.title() == "Details", "the program's script ran outside a sandbox"
    finally:
        context.close()


def upload_program_through_the_console(chromium, live_server, world) -> None:
    """The organizer uploads a program version on the console's round page; it shows with
    its build's state."""
    from scoring.scorer.demo import demo_program_zip

    context, page = new_page(chromium, live_server, ("en", 1366), world.organizer.username)
    try:
        page.goto(f"/console/{SLUG}/r/{world.round.slug}/")
        shot(page, "console-round-before-upload-en-1366")
        form = page.get_by_test_id("scorer-program-form")
        form.locator("input[type=file]").set_input_files(
            files=[{"name": "v2.zip", "mimeType": "application/zip", "buffer": demo_program_zip()}]
        )
        with page.expect_navigation():
            page.get_by_test_id("scorer-program-submit").click()
        newest = page.locator("[data-testid=scorer-version][data-version='2']")
        # Waiting, building, or already built by a worker another test of this process
        # started (a session's, in a shuffled order); never failed.
        assert newest.get_by_test_id("scorer-version-status").inner_text() in (
            "Waiting for its build",
            "Building",
            "Ready",
        )
    finally:
        context.close()


def pages_of(world, role: str) -> list[tuple[str, str]]:
    from pwscup.kinds import get_kind

    base = f"/c/{SLUG}/{world.round.slug}/"
    pages = [(f"tab-{tab.strip('/') or 'overview'}", base + tab) for tab in TABS]
    if role == "organizer":
        pages += [
            ("console-round", f"/console/{SLUG}/r/{world.round.slug}/"),
            ("console-create", get_kind("scorer").console_create_url(world.competition)),
        ]
    return pages


def test_scorer_pages_as_their_users_see_them(chromium, live_server, tmp_path):
    """Slow (over 20 s: about a minute alone): 56 page visits (7 pages, 2 roles, 2 languages,
    2 widths) in one browser, axe-core on half of them; one world for all."""
    world = scorer_world(slug=SLUG, password=PASSWORD)
    assert not world.organizer.is_superuser
    for letter, noise in (("b", 1), ("c", 3)):
        release(world, letter, release_bytes(noise=noise, seed=ord(letter)))
    upload_release_through_the_form(chromium, live_server, world, tmp_path)
    targets = attack_phase(world)
    attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
    upload_program_through_the_console(chromium, live_server, world)

    overflowing, violations = {}, {}
    users = {"team": world.users["a"].username, "organizer": world.organizer.username}
    for role, username in users.items():
        for view in VIEWS:
            context, page = new_page(chromium, live_server, view, username)
            try:
                for name, address in pages_of(world, role):
                    response = page.goto(address)
                    assert response.status == 200, (role, view, address, response.status)
                    shot(page, f"{role}-{name}-{view[0]}-{view[1]}")
                    if sideways(page) > 0:
                        overflowing[(role, view, name)] = sideways(page)
                    # The console's round page: its scorer panel (the core's part is swept
                    # by test_axe_pages.py); every other page as a whole.
                    scope = "[data-testid^=scorer-]" if name == "console-round" else "html"
                    # axe-core on two of the four views (a phone in English, a laptop in
                    # Japanese): the markup is the same; the layout is checked on all four.
                    if view in AXE_VIEWS and (found := violations_of(page, scope)):
                        violations[(role, view, name)] = found
                    if name == "console-create":
                        # Each field of a row has its label: read only on a laptop (1 px),
                        # shown above the field on a phone.
                        label = page.locator(".scorer-rows .row-label").first.bounding_box()
                        assert (label["width"] > 20) == (view[1] < 800), (view, label)
                if role == "team":
                    page.goto(f"/c/{SLUG}/{world.round.slug}/submit/")
                    assert page.get_by_test_id("attack-1").get_by_test_id("attack-score").count()
            finally:
                context.close()
    assert overflowing == {}, overflowing
    assert violations == {}, violations
