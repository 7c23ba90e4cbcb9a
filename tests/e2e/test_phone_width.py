"""At phone width (390 px) the header and the tables stay usable, in both languages: the
page itself never scrolls sideways (only a table's own scroll container may), and every
header control is on screen and clickable."""

import re
import zoneinfo

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.pwscup2015.models import AnonymizationSubmission
from pwscup.submissions.models import Status
from tests.e2e.helpers import keep_screenshot, open_tab, switch_language
from tests.e2e.test_live_round_page import LONG_MESSAGE, WIDE_SCORES, stored

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDTH, HEIGHT = 390, 844
HEADER_CONTROLS = ("bell", "who", "lang-en", "lang-ja")


def page_overflow(page) -> int:
    """How far the page (not a scroll container inside it) is wider than the viewport."""
    return page.evaluate(
        "() => Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth"
    )


def escaping_elements(page) -> list[str]:
    """Elements whose box runs past the viewport's right edge without being clipped by a
    scroll container (an ancestor with overflow-x auto/scroll/hidden)."""
    return page.evaluate(
        """(width) => {
          const clipped = (e) => {
            for (let p = e.parentElement; p; p = p.parentElement) {
              const o = getComputedStyle(p).overflowX;
              if (o === 'auto' || o === 'scroll' || o === 'hidden') return true;
            }
            return false;
          };
          return Array.from(document.body.querySelectorAll('*'))
            .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !clipped(e))
            .map((e) => e.tagName + (e.dataset.testid ? '[' + e.dataset.testid + ']' : '')
                        + '.' + e.className)
            .slice(0, 10);
        }""",
        WIDTH,
    )


def spilling_content(page) -> list[str]:
    """For the message: elements whose content is wider than their box (an unbroken word)."""
    return page.evaluate(
        """() => Array.from(document.body.querySelectorAll('*'))
          .filter((e) => e.scrollWidth > e.clientWidth + 1
                         && getComputedStyle(e).overflowX === 'visible')
          .map((e) => e.tagName + '.' + e.className + ' ' + e.scrollWidth + '>' + e.clientWidth)
          .slice(0, 10)"""
    )


def assert_on_screen(elements, *context) -> None:
    """Each element (a locator's ``all()``) lies inside the screen's width."""
    for element in elements:
        box = element.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (*context, box)


@pytest.fixture
def on_a_phone(cookie_log_in):
    """``on_a_phone(page, username, language)``: the page at 390 px, logged in as
    ``username`` (by a session cookie: these tests look at pages at a phone's width, not at
    the log-in form, which its own journeys fill in), in ``language``."""

    def phone(page, username: str, language: str) -> None:
        page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
        cookie_log_in(page, username)
        if language != "en":
            switch_language(page, language)

    return phone


def check_page(page, screenshot, name: str) -> None:
    assert escaping_elements(page) == [], name
    assert page_overflow(page) <= 0, (name, spilling_content(page))
    for testid in HEADER_CONTROLS:
        control = page.get_by_test_id(testid)
        expect(control).to_be_visible()
        box = control.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (name, testid, box)
        assert box["height"] >= 16, (name, testid, box)
        # Nothing covers it: the element at its centre is the control (or inside it).
        covered = control.evaluate(
            "e => { const r = e.getBoundingClientRect();"
            " const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);"
            " return !(hit === e || e.contains(hit)); }"
        )
        assert not covered, (name, testid)
    screenshot(page, name)
    keep_screenshot(page, f"{name}-top")  # the first screen only


def stacked_table_read(page, table, row, name: str) -> None:
    """A "stacks" table at 390 px: each of ``row``'s three named cells shows its column's
    name (the header is hidden), the table is still a table for a screen reader, and the
    page fits the phone."""
    labels = row.locator(".phone-label")
    assert [label.is_visible() for label in labels.all()] == [True, True, True], name
    tree = table.aria_snapshot()
    assert "- row " in tree and "- cell " in tree and "- columnheader " in tree, tree[:400]
    check_page(page, lambda *args: None, name)
    keep_screenshot(table, name)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_header_and_tables_at_phone_width(web, e2e_world, screenshot, language, on_a_phone):
    world, page = e2e_world, web
    final = stored(world, status=Status.FINISHED, scores=WIDE_SCORES, is_selected=True, number=2)
    stored(world, status=Status.FINISHED, scores=WIDE_SCORES, number=1, note="k=5 + noise σ=10")
    failed = stored(world, status=Status.FAILED, message=LONG_MESSAGE, number=3)
    on_a_phone(page, "team-a", language)

    page.goto(world.round_url())
    for tab in ("overview", "data", "rules", "results"):  # every tab fits the phone
        if tab != "overview":
            open_tab(page, tab)
        check_page(page, screenshot, f"phone-round-{tab}-{language}")
    open_tab(page, "rules")
    command = page.get_by_test_id("cli-command")
    assert command.bounding_box()["x"] + command.bounding_box()["width"] <= WIDTH
    keep_screenshot(page.get_by_test_id("scoring-guide"), f"phone-scoring-guide-{language}")
    open_tab(page, "submit")
    expect(page.get_by_test_id(f"submission-{final.pk}")).to_have_attribute("data-final", "1")
    expect(page.get_by_test_id(f"submission-{failed.pk}")).to_be_visible()  # newest: unfolded
    scroller = page.get_by_test_id("submissions-scroll")
    widths = scroller.evaluate("e => [e.scrollWidth, e.clientWidth]")
    assert widths[0] > widths[1], "the 14 metrics need the table's own horizontal scroll"
    box = scroller.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, box
    check_page(page, screenshot, f"phone-round-{language}")
    # a close-up for a reader of the screenshots
    keep_screenshot(page.get_by_test_id("jobs"), f"phone-jobs-{language}")

    page.get_by_test_id(f"submission-{final.pk}").get_by_test_id("edit-note").click()
    expect(page.get_by_test_id("note-form")).to_be_visible()
    check_page(page, screenshot, f"phone-note-{language}")

    page.goto(f"/c/{world.competition.slug}/{world.round.slug}/leaderboard/")
    expect(page.get_by_test_id("leaderboard")).to_be_visible()
    check_page(page, screenshot, f"phone-leaderboard-{language}")

    page.goto("/")
    check_page(page, screenshot, f"phone-home-{language}")
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 3


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_long_file_name_in_a_notification_wraps_at_phone_width(
    web, e2e_world, language, cookie_log_in
):
    """A notification names the uploaded file: one long name, without a space, made the
    notifications page 1,854 px wide on a phone."""
    from pwscup.notifications.models import Notification
    from pwscup.notifications.services import notify

    name = "teamA_anonymized_" + "k5" * 90 + ".csv"
    notify(
        users=[e2e_world.users["a"]],
        kind=Notification.Kind.SUBMISSION_FAILED,
        event="submission_failed:long-name",
        params={"file": name, "round": e2e_world.round.name},
    )
    cookie_log_in(web, "team-a")
    if language != "en":
        switch_language(web, language)
    web.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    web.goto("/notifications/")
    expect(web.get_by_test_id("notification")).to_contain_text(name)
    assert page_overflow(web) <= 0
    assert escaping_elements(web) == []


def test_a_refused_sequential_release_page_fits_a_phone(web, cookie_log_in):
    """A sequential release's own page names its file and quotes the refusal: a long file
    name without a space (1,933 px) and a refused header quoted in full, its commas without
    spaces (399 px), made the page wider than a phone."""
    from pwscup.sequential import services
    from tests.e2e.helpers import PASSWORD
    from tests.pwscup.seq_web_world import check, seq_world, upload_file

    world = seq_world(slug="seqphone", password=PASSWORD)
    header = ",".join(f"column_{k}" for k in range(15))
    release = check(
        services.release_upload(
            sequential=world.sequential,
            team=world.teams["a"],
            user=world.users["a"],
            step=1,
            uploaded_file=upload_file(f"{header}\n".encode(), "release_" + "v2" * 90 + ".csv"),
        )
    )
    assert release.status == release.Status.FAILED and header in release.message
    cookie_log_in(web, "seqphone-team-a")
    web.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/seq/releases/{release.pk}/")
    expect(web.get_by_test_id("release-message")).to_contain_text(header)
    assert page_overflow(web) <= 0
    assert escaping_elements(web) == []


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_audit_log_reads_at_phone_width_and_is_still_a_table(
    web, e2e_world, language, on_a_phone
):
    """An organizer on a phone reads each entry of the console's audit log whole, its details
    included (a long round name, a SHA-256 without a space, a moment never broken inside),
    with no sideways scroll; a screen reader still reads a table of rows and cells."""
    from pwscup.competitions.models import AuditEntry
    from pwscup.competitions.services import audit_record

    world, page = e2e_world, web
    entry = audit_record(
        user=world.organizer,
        competition=world.competition,
        round=world.round,
        action=AuditEntry.Action.ROUND_EDITED,
        name="ラウンド S：運営者の採点プログラム / Round S: the organizer's own scoring program",
        sha256="0ea17d53dd4de771b51c354a24a884a668cd1fcaf95bb6ec1f90ec18a42aa255",
        closes=world.round.phases.get(kind="anonymization").closes_at.isoformat(),
    )
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/")
    log = page.get_by_test_id("audit-log")
    row = log.get_by_test_id(f"audit-{entry.action}")
    expect(row).to_contain_text("0ea17d53dd4de771")
    assert_on_screen(row.locator("td").all(), language)
    for cell in row.locator("td").all():
        # Nothing of the cell's text is cut off or left for a sideways scroll.
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), language
    assert log.locator(".scroll").evaluate("e => e.scrollWidth <= e.clientWidth")
    # The entry's time and the moment in its details, each on one line.
    assert row.locator("time").count() == 2
    for moment in row.locator("time").all():
        assert moment.evaluate("e => e.getClientRects().length") == 1, moment.text_content()
    check_page(page, lambda *args: None, f"phone-audit-{language}")
    tree = log.aria_snapshot()
    assert "- table" in tree and "- row " in tree and "- cell " in tree, tree[:400]
    assert "- columnheader " in tree, tree[:400]
    keep_screenshot(log, f"phone-audit-log-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_round_s_schedule_fits_a_phone_with_each_date_whole(web, e2e_world, language, on_a_phone):
    """The competition page's schedules at 390 px, the round's phases and the presentation
    windows: the four columns on the screen, and a time wraps after its date, never inside
    ``2026-11-29`` (which broke after its hyphens)."""
    from tests.pwscup.presentations_support import window_for

    world, page = e2e_world, web
    window_for(world, title="最終発表 / Final presentations of the round")
    on_a_phone(page, "team-a", language)

    page.goto(f"/c/{world.competition.slug}/")
    for card, rows in (
        (page.get_by_test_id(f"round-{world.round.slug}"), world.round.phases.count()),
        (page.get_by_test_id("presentations-card"), 1),
    ):
        parts = card.locator("td span.nowrap")
        # The date and the time of each row's opening and closing.
        assert parts.count() == 4 * rows
        for part in parts.all():
            assert part.evaluate("e => e.getClientRects().length") == 1, part.text_content()
        assert_on_screen(card.locator("td, th").all(), language)
    check_page(page, lambda *args: None, f"phone-competition-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_organizer_offers_data_packs_from_a_phone(web, e2e_world, language, on_a_phone):
    """The console's data choice at 390 px: each pack's key and two labels stacked, every
    field on the screen under a visible label (no sideways scroll to find the labels), and
    the form saves as the browser posts it."""
    from pwscup.competitions.models import DataChoice

    world, page = e2e_world, web
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/")
    card = page.get_by_test_id("round-data-choice")
    region = card.locator(".choice-rows")
    assert region.evaluate("e => e.scrollWidth <= e.clientWidth"), language
    for name in ("key", "label", "label_ja"):
        field = card.locator(f"input[name='choices-0-{name}']")
        label = card.locator(f"label[for='{field.get_attribute('id')}']")
        for box in (field.bounding_box(), label.bounding_box()):
            assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (language, name, box)
        assert label.bounding_box()["height"] >= 10, (language, name)  # shown, not hidden
        assert label.bounding_box()["y"] < field.bounding_box()["y"], (language, name)
    check_page(page, lambda *args: None, f"phone-data-choice-{language}")

    card.locator("input[name='choices-0-key']").fill("adult")
    card.locator("input[name='choices-0-label']").fill("Adult census")
    card.locator("input[name='choices-0-label_ja']").fill("国勢調査")
    card.get_by_test_id("round-data-choice-save").click()
    expect(page.get_by_test_id("round-data-choice-teams")).to_be_visible()
    assert list(DataChoice.objects.filter(round=world.round).values_list("key", flat=True)) == [
        "adult"
    ]
    keep_screenshot(page.get_by_test_id("round-data-choice"), f"phone-data-choice-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_moment_in_a_sentence_stays_on_one_line_at_phone_width(
    web, e2e_world, language, on_a_phone
):
    """A round's overview says when the phase closes in its sentences ("Upload a better
    anonymized CSV until 2026-12-06 08:29 JST."): at 390 px each moment is one ``<time>``
    on one line (a phone broke it after a hyphen), and it carries the moment for a machine."""
    world, page = e2e_world, web
    on_a_phone(page, "team-a", language)
    page.goto(world.round_url())
    moments = page.locator("main time")
    assert moments.count() >= 2, language  # the flow's upload step and the schedule at least
    closes = world.round.phases.get(kind="anonymization").closes_at
    local = closes.astimezone(zoneinfo.ZoneInfo(world.round.timezone)).replace(microsecond=0)
    assert page.locator(f"main time[datetime='{local.isoformat()}']").count() >= 1, language
    for moment in moments.all():
        assert moment.evaluate("e => e.getClientRects().length") == 1, moment.text_content()
        box = moment.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (language, box)
    check_page(page, lambda *args: None, f"phone-moments-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_an_organizer_reads_and_acts_on_the_teams_from_a_phone(
    web, e2e_world, language, on_a_phone
):
    """The console's teams at 390 px: each team a block whose name, members, status and
    actions are all on the screen (its status and actions lay off a phone's screen), still a
    table for a screen reader; the header wraps, and its second line does not begin with the
    rule that set the language switch apart."""
    world, page = e2e_world, web
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/teams/")
    table = page.get_by_test_id("console-team-table")
    assert table.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
    team = world.teams["b"]
    row = table.get_by_test_id(f"console-team-{team.slug}")
    assert_on_screen(row.locator("td").all(), language)
    for cell in row.locator("td").all():
        assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1"), language
    disqualify = row.get_by_test_id(f"disqualify-{team.slug}")
    assert disqualify.bounding_box()["x"] + disqualify.bounding_box()["width"] <= WIDTH
    tree = table.aria_snapshot()
    assert "- row " in tree and "- cell " in tree and "- columnheader " in tree, tree[:400]
    check_page(page, lambda *args: None, f"phone-teams-{language}")
    keep_screenshot(table, f"phone-teams-{language}")

    switch = page.locator("form.lang")
    brand = page.locator(".topbar .brand")
    assert switch.bounding_box()["y"] > brand.bounding_box()["y"] + brand.bounding_box()["height"]
    assert switch.evaluate("e => getComputedStyle(e).borderLeftWidth") == "0px", language

    disqualify.click()
    address = reverse("console:team_disqualify", args=[world.competition.slug, team.pk])
    expect(page).to_have_url(re.compile(re.escape(address) + "$"))


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_2015_console_s_phases_fit_a_phone(web, e2e_world, language, on_a_phone):
    """The 2015 round's console lists its phases as a round's schedule on a phone: the name,
    its state and its countdown stacked, the dates beside them (five columns lay off a
    390 px screen, the names broken after each character); a phase not scheduled says so
    under its name."""
    world, page = e2e_world, web
    world.round.phases.filter(kind="attack").delete()
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/")
    card = page.get_by_test_id("round-phases")
    assert card.locator(".scroll").evaluate("e => e.scrollWidth <= e.clientWidth")
    assert_on_screen(card.locator("td").all(), language)
    opened = card.get_by_test_id("phase-anonymization")
    name, state, countdown = (opened.locator("td").nth(k).bounding_box() for k in (0, 3, 4))
    assert name["y"] + name["height"] <= state["y"] + 1 <= countdown["y"] + 1, language
    assert name["x"] == state["x"] == countdown["x"], language
    waiting = card.get_by_test_id("phase-attack").locator("td")
    assert waiting.nth(1).bounding_box()["y"] >= waiting.nth(0).bounding_box()["y"] + 1, language
    tree = card.locator("table").aria_snapshot()
    assert "- row " in tree and "- cell " in tree and "- columnheader " in tree, tree[:400]
    check_page(page, lambda *args: None, f"phone-console-phases-{language}")
    keep_screenshot(card, f"phone-console-phases-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_console_s_presentation_windows_fit_a_phone(web, e2e_world, language, on_a_phone):
    """The console's presentation windows at 390 px: a window's name and state beside its
    closing, then its count of teams with slides, named (its header is hidden there), and
    whether the slides are published, all on the screen (the last two columns lay off it);
    on a desktop the header names the count, and the cell holds the count alone."""
    from tests.pwscup.presentations_support import window_for

    world, page = e2e_world, web
    window_for(world, title="最終発表 / Final presentations of the round")
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/")
    card = page.get_by_test_id("console-presentations")
    assert card.locator(".scroll").evaluate("e => e.scrollWidth <= e.clientWidth"), language
    assert_on_screen(card.locator("td").all(), language)
    label = card.locator("td .phone-label")
    expect(label).to_be_visible()
    header = card.locator("th").nth(2).text_content()
    assert label.text_content() == header, language
    tree = card.locator("table").aria_snapshot()
    assert "- row " in tree and "- cell " in tree and "- columnheader " in tree, tree[:400]
    check_page(page, lambda *args: None, f"phone-console-presentations-{language}")
    keep_screenshot(card, f"phone-console-presentations-{language}")

    page.set_viewport_size({"width": 1280, "height": HEIGHT})
    expect(label).to_be_hidden()
    expect(card.locator("th").nth(2)).to_be_visible()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_data_tab_s_columns_read_as_blocks_on_a_phone(web, e2e_world, language, on_a_phone):
    """The Data tab's columns at 390 px, the 2015 game's and the synthetic kind's: a column
    per block, its name with its role and type on a line, then its values at the screen's
    width (the values lay off the screen and the words were crushed); still a table for a
    screen reader. The synthetic rules' worked example shows its eight rows whole."""
    from tests.e2e.helpers import PASSWORD
    from tests.pwscup.syn_world import syn_world

    synthetic = syn_world(slug="synphone", letters="a", rows=1200, password=PASSWORD)
    pages = (
        ("team-a", f"{e2e_world.round_url()}data/", "[data-testid=column-table]"),
        ("synphone-team-a", f"/c/synphone/{synthetic.round.slug}/data/", "table.syn-columns"),
    )
    for username, address, selector in pages:
        web.context.clear_cookies()
        on_a_phone(web, username, language)
        web.goto(address)
        table = web.locator(selector)
        assert table.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
        row = table.locator("tbody tr").nth(1)  # workclass: a category and its values
        cells = row.locator("th, td").all()
        assert_on_screen(cells, address, language)
        # The name and its type share the first line (the 2015 tab's type is its third cell of
        # five, the synthetic tab's kind its second of three); the values are under them.
        name = cells[0].bounding_box()
        kind = (cells[2] if len(cells) == 5 else cells[1]).bounding_box()
        values = cells[-1].bounding_box()
        assert abs(kind["y"] - name["y"]) < 4, (address, language)
        assert values["y"] >= name["y"] + name["height"] - 1, (address, language)
        assert values["width"] > WIDTH / 2, (address, language)
        tree = table.aria_snapshot()
        assert "- row " in tree and "- cell " in tree and "- columnheader " in tree, tree[:400]
        check_page(web, lambda *args: None, f"phone-columns-{language}")
        keep_screenshot(table, f"phone-columns-{username}-{language}")
    # The synthetic rules' worked example: its eight challenge rows side by side, all shown.
    web.goto(f"/c/synphone/{synthetic.round.slug}/rules/")
    example = web.locator("table.syn-example")
    assert example.locator("thead th").count() == 9, language  # "id" and eight rows
    assert example.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_sequential_data_tab_s_releases_fit_a_phone(web, language, on_a_phone):
    """The sequential Data tab's releases at 390 px, the round opening tomorrow: a release's
    number beside its close, then its table and the team's release, each named (four
    columns lay off the screen; an unnamed close beside *upcoming* read as the opening).
    The Overview's schedule, its opening column too, lies on the screen (the core's
    schedule: a row is a grid on a phone)."""
    import datetime as dt

    from django.utils import timezone

    from pwscup.sequential import services
    from pwscup.sequential.models import SequentialRound
    from tests.e2e.helpers import PASSWORD
    from tests.pwscup.seq_web_world import seq_world

    world = seq_world(slug="seqsteps", password=PASSWORD)
    opens = timezone.now() + dt.timedelta(days=1)
    services.schedule_set(
        sequential=world.sequential,
        first_close=opens + dt.timedelta(days=7),
        step_length=dt.timedelta(days=1),
    )
    SequentialRound.objects.filter(pk=world.sequential.pk).update(opens_at=opens)
    on_a_phone(web, "seqsteps-team-a", language)
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/data/")
    table = web.get_by_test_id("step-table")
    assert table.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
    cells = table.get_by_test_id("step-1").locator("td").all()
    assert_on_screen(cells, language)
    number, close, present, release = (cell.bounding_box() for cell in cells)
    assert abs(close["y"] - number["y"]) < 4 and present["y"] < release["y"], language
    # The release's name stays on one line: the named close beside it wraps after its date.
    lines = cells[0].evaluate(
        "e => { const r = document.createRange(); r.selectNodeContents(e);"
        " return new Set([...r.getClientRects()].map((x) => Math.round(x.top))).size; }"
    )
    assert lines == 1, (language, cells[0].inner_text())
    labels = table.get_by_test_id("step-1").locator(".phone-label")
    assert [label.is_visible() for label in labels.all()] == [True] * 4, language
    assert labels.nth(1).inner_text() == {"en": "Closes", "ja": "締切"}[language]
    tree = table.aria_snapshot()
    assert "- row " in tree and "- cell " in tree and "- columnheader " in tree, tree[:400]
    check_page(web, lambda *args: None, f"phone-steps-{language}")
    keep_screenshot(table, f"phone-steps-{language}")
    web.goto(f"/c/{world.competition.slug}/{world.round.slug}/")
    schedule = web.get_by_test_id("schedule")
    assert_on_screen(schedule.locator("td").all(), language)
    assert schedule.locator("td span.nowrap").count() == 4  # release 1's opening and close
    check_page(web, lambda *args: None, f"phone-seq-overview-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_console_s_standings_fit_a_phone_and_save(web, e2e_world, language, on_a_phone):
    """The console's standings at 390 px: each round a block, its name at the screen's width,
    whether it counts beside its weight, then its rankings, each named (the rankings column
    lay off the screen in the demo, whose rounds carry both languages' names); still a table
    for a screen reader, and the form saves as the phone shows it."""
    from pwscup.competitions.standings_models import Standings

    world, page = e2e_world, web
    world.round.name = "ラウンド 1：共通の元データ / Round 1: shared original"
    world.round.save(update_fields=["name"])
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/standings/")
    table = page.get_by_test_id("standings-form").locator("table")
    assert table.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
    row = page.get_by_test_id(f"standings-row-{world.round.slug}")
    cells = row.locator("td").all()
    assert_on_screen(cells, language)
    name, counts, weight, rankings = (cell.bounding_box() for cell in cells)
    middle = [box["y"] + box["height"] / 2 for box in (counts, weight)]
    assert abs(middle[0] - middle[1]) < 4 and name["y"] < counts["y"] < rankings["y"]
    stacked_table_read(page, table, row, f"phone-standings-{language}")

    row.locator("input[type=checkbox][name$=counts]").check()
    row.locator("input[name$=weight]").fill("2")
    page.locator("[data-testid=standings-form] button[type=submit]").click()
    expect(page.get_by_test_id("standings-page-link")).to_be_visible()
    entry = Standings.objects.get(competition=world.competition).entries.get()
    assert (entry.round_id, entry.weight) == (world.round.pk, 2), language


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_console_s_awards_fit_a_phone_and_remove(web, e2e_world, language, on_a_phone):
    """The console's judged awards at 390 px: each award a block, its names, team and round
    at the screen's width, then its order beside Edit and Remove, each on the screen (they
    lay off it, in a table scrolled sideways); still a table for a screen reader, and Remove
    works as the phone shows it."""
    from pwscup.accounts.models import Award
    from pwscup.accounts.services import award_create

    world, page = e2e_world, web
    world.round.name = "ラウンド 1：共通の元データ / Round 1: shared original"
    world.round.save(update_fields=["name"])
    award = award_create(
        user=world.organizer,
        competition=world.competition,
        team=world.teams["a"],
        round=world.round,
        name_en="Best anonymization of the preliminary round",
        name_ja="予選最優秀匿名化賞",
        citation="For a release that kept its utility under every attack of the round.",
    )
    on_a_phone(page, "organizer", language)

    page.goto(f"/console/{world.competition.slug}/awards/")
    table = page.get_by_test_id("console-awards").locator("table")
    assert table.evaluate("e => e.parentElement.scrollWidth <= e.parentElement.clientWidth")
    row = table.get_by_test_id(f"console-award-{award.pk}")
    assert_on_screen(row.locator("td").all(), language)
    edit, remove = (
        page.get_by_test_id(f"award-edit-{award.pk}"),
        page.get_by_test_id(f"award-remove-{award.pk}"),
    )
    assert_on_screen([edit, remove], language)
    stacked_table_read(page, table, row, f"phone-awards-{language}")

    # Remove asks first, on a page that fits the phone; its button removes the award.
    remove.click()
    confirm = page.get_by_test_id("award-remove-confirm")
    assert_on_screen([confirm], language)
    assert page_overflow(page) <= 0
    assert Award.objects.filter(pk=award.pk).exists(), language
    confirm.click()
    expect(page.get_by_test_id(f"console-award-{award.pk}")).to_have_count(0)
    assert not Award.objects.filter(pk=award.pk).exists(), language


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_footer_keeps_its_command_on_one_line(web, language):
    # At 390 px the footer broke "python -m scoring" after its hyphen ("python -" / "m
    # scoring"): a command read across two lines is copied wrong.
    from tests.e2e.test_wide_content_at_phone_width import LINES

    web.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    web.goto("/accounts/signup/")
    if language != "en":
        switch_language(web, language)
    command = web.locator("footer code")
    expect(command).to_have_text("python -m scoring", timeout=2000)
    assert command.evaluate(LINES) == 1
    assert page_overflow(web) <= 0
