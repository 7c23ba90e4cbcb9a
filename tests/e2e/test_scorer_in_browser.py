"""The scorer round's pages in Chromium as their users see them: a team member and an
organizer who is not a superuser, in English and Japanese, on a laptop (1366 px) and a
phone (390 px). One world for the module: team A uploads its release through the Submit
tab's own form (scored here as the worker scores it) and sees its score; the organizer
opens the attack phase, team A attacks, and the organizer uploads a program version
through the console's form and sees it wait for its build. Then every tab, the console's
round page (the scorer panel) and the creation page, for each role, language and width:
nothing scrolls the page sideways (a wide table scrolls in its own ``.scroll`` box).
Screenshots are kept when ``PWSCUP_E2E_SCREENSHOTS`` names a folder (``scorer-*.png``).

A second world, at 1280 px: five release scores and three attack scores with long labels (a
program's run to 60 letters) and a final release with its "make it final" button; the Submit
tab's tables fit their frames in both phases, in both languages."""

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import (
    PASSWORD,
    keep_screenshot,
    log_in_by_cookie,
    reload_page,
    switch_language,
)
from tests.e2e.test_axe_pages import AXE_OPTIONS, AXE_SCRIPT, BLOCKING
from tests.pwscup.scorer_world import (
    CONFIG,
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


# Labels as long as a program's real ones, in both languages (the first keys are the demo
# program's: it writes only those, the others are set on the stored uploads).
RELEASE_LABELS = [
    ("utility", "Utility (mean absolute error)", "有用性（数値列の平均絶対誤差に基づく指標）"),
    ("cross", "Cross-tabulation distance", "クロス集計表の距離（カテゴリ列の組み合わせ）"),
    ("corr", "Correlation kept", "相関係数の保存度（数値列の全ての組について）"),
    ("kept", "Rows kept", "残った行の割合（削除されずに公開された行）"),
    ("group", "Smallest group size", "最小の同値類の大きさ（準識別子の組み合わせ）"),
]
ATTACK_LABELS = [
    ("reidentified", "Re-identified rows", "再識別された行の割合（全行に対して）"),
    ("precision", "Precision of the guesses", "推定の適合率（推定した行のうち正しい行）"),
    ("attributes", "Attributes inferred", "推定できた属性値の割合（機微属性について）"),
]


def columns(labels) -> list[dict]:
    return [
        {"key": k, "label": en, "label_ja": ja, "higher_is_better": True} for k, en, ja in labels
    ]


def wide_tables(page) -> list[tuple[str, int, int]]:
    """The Submit tab's tables that scroll in their frame: label, content and frame widths."""
    return [
        (box.get_attribute("aria-label"), *box.evaluate("e => [e.scrollWidth, e.clientWidth]"))
        for box in page.locator("#upload ~ section .scroll, #attacks .scroll").all()
        if box.evaluate("e => e.scrollWidth > e.clientWidth")
    ]


def test_the_submit_tab_s_tables_fit_a_laptop_with_five_long_score_labels(web, live_server):
    from django.core.files.base import ContentFile

    from pwscup.scorer.models import Attack, Release

    config = dict(
        CONFIG,
        release_columns=columns(RELEASE_LABELS),
        attack_columns=columns(ATTACK_LABELS),
        attack_counts="chosen",
    )
    world = scorer_world(slug="scwide", password=PASSWORD, config=config)
    release(world, "b", release_bytes(noise=1, seed=1))
    for number in range(3):  # the newest is final; each has its "make it final" button
        kept = release(world, "a", release_bytes(noise=2 + number))
        assert kept.status == "finished", kept.status
        kept.detail.save(
            "detailed_results.html", ContentFile(DETAIL)
        )  # saves the row: scores after
        Release.objects.filter(pk=kept.pk).update(scores={k: 12.3456 for k, *_ in RELEASE_LABELS})
    page, address = web, f"/c/scwide/{world.round.slug}/submit/"
    page.set_viewport_size({"width": 1280, "height": 900})
    log_in_by_cookie(page, live_server.url, world.users["a"].username)
    for phase in ("release", "attack"):
        if phase == "attack":
            targets = attack_phase(world)
            guess = attack(world, "a", guess_bytes(targets["teamb"]), target=targets["teamb"])
            assert guess.status == "finished", guess.status
            Attack.objects.filter(pk=guess.pk).update(scores={k: 0.5 for k, *_ in ATTACK_LABELS})
        for language in ("en", "ja"):
            page.goto(address)
            switch_language(page, language)
            expect(page.locator("th.score-label")).to_have_count(
                len(RELEASE_LABELS) + (len(ATTACK_LABELS) if phase == "attack" else 0)
            )
            assert wide_tables(page) == [], (phase, language)
            assert sideways(page) <= 0, (phase, language)
            shot(page, f"team-submit-{phase}-five-scores-{language}-1280")
