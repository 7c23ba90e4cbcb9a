"""The competition's standings at 390 px with Japanese team names: the team column wrapped
them letter by letter (チー / ムC) to fit the screen; each name stays on one line, the table
scrolling in its frame as the other tables do; the chart above it cuts a long name short
within the picture; so does the round's final ranking (its attack table wrapped them too). In a 2015 round's attack phase the team's attacks (Submit and Results
tabs) and the targets (Submit tab) broke a target's name inside a word at 390 px (チ / ー / ム
/ A): a name breaks only between its words, at 390 and 1280 px."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import open_tab, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, page_overflow, spilling_content
from tests.pwscup.archive_world import play_2015

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = {"a": "チームA", "b": "チームB 匿名化研究室", "c": "チームC"}
LINES_OF = "e => { const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects().length; }"


def played_with_names(world, names: dict[str, str], *, publish: bool = True) -> None:
    """The teams renamed (``names`` by letter), then the 2015 round played (``play_2015``)."""
    from pwscup.accounts.models import Team

    for letter, name in names.items():
        Team.objects.filter(pk=world.teams[letter].pk).update(name=name)
    play_2015(world, publish=publish)


@pytest.mark.parametrize("language", ["ja", "en"])
def test_japanese_team_names_stay_whole_on_a_phone(
    web, e2e_world, language, cookie_log_in, screenshot
):
    from pwscup.competitions.standings_services import EntryInput, standings_update

    world, page = e2e_world, web
    played_with_names(world, NAMES)
    standings_update(
        user=world.organizer,
        competition=world.competition,
        rule="weighted_rank",
        entries=[EntryInput(world.round, Decimal(1), ("attack",))],
    )
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    cookie_log_in(page, "team-a")
    if language != "en":
        switch_language(page, language)
    page.goto(f"/c/{world.competition.slug}/standings/")
    table = page.get_by_test_id("standings-table")
    for name in NAMES.values():
        cell = table.get_by_role("cell", name=name, exact=True)
        expect(cell).to_be_visible()
        assert cell.evaluate(LINES_OF) == 1, (language, name)
    # The chart above the table: each bar's "rank. name" ends at the bars' left edge; a
    # long Japanese name (counted by letters, each twice an ASCII letter's width) began
    # off the picture (". チームB 匿名化研究室", its rank cut off).
    chart = page.get_by_test_id("standings-chart").locator("svg")
    left = chart.bounding_box()["x"]
    for label in chart.locator("text[text-anchor=end]").all():
        assert label.bounding_box()["x"] >= left, (language, label.text_content())
    frame = table.locator("xpath=..").bounding_box()
    assert frame["x"] >= 0 and frame["x"] + frame["width"] <= WIDTH, (language, frame)
    assert page_overflow(page) <= 0, (language, spilling_content(page))
    screenshot(page, f"standings-team-names-{language}")
    # The round's final ranking (linked from the Results tab once published): both tables'
    # team names whole.
    page.goto(world.round_url())
    open_tab(page, "results")
    page.get_by_test_id("final-link").click()
    for letter, name in NAMES.items():
        for row in ("final-row", "attack-row"):
            cell = page.get_by_test_id(f"{row}-{world.teams[letter].slug}").get_by_text(
                name, exact=True
            )
            assert cell.evaluate(LINES_OF) == 1, (language, row, name)
    assert page_overflow(page) <= 0, (language, spilling_content(page))
    screenshot(page, f"final-ranking-team-names-{language}")


# The places where a line breaks inside a word of the element's text ("チ|ームA"): a break
# after a space is between words.
BROKEN_WORDS = """e => {
  const found = [], walker = document.createTreeWalker(e, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent, range = document.createRange();
    let top = null;
    for (let i = 0; i < text.length; i++) {
      if (/\\s/.test(text[i])) { top = null; continue; }
      range.setStart(node, i); range.setEnd(node, i + 1);
      const at = range.getBoundingClientRect().top;
      if (top !== null && Math.abs(at - top) > 1) found.push(text.slice(0, i) + "|" + text.slice(i));
      top = at;
    }
  }
  return found; }"""
TARGET_NAMES = {"a": "チームA 匿名化研究室", "b": "Anonymization Laboratory Tokyo"}


@pytest.mark.parametrize("language", ["ja", "en"])
def test_a_target_s_name_breaks_only_between_words_in_the_attack_phase(
    web, e2e_world, language, cookie_log_in, screenshot
):
    world, page = e2e_world, web
    played_with_names(world, TARGET_NAMES, publish=False)  # C attacked A; attacks still open
    cookie_log_in(page, "team-c")
    if language != "en":
        switch_language(page, language)
    page.goto(world.round_url())
    for width in (WIDTH, 1280):
        page.set_viewport_size({"width": width, "height": HEIGHT})
        for tab in ("submit", "results"):
            open_tab(page, tab)
            cells = page.get_by_test_id("attacks").locator("td.team-name").all()
            if tab == "submit":
                cells += page.get_by_test_id("targets").locator("td.team-name").all()
            shown = [cell.inner_text() for cell in cells]
            assert TARGET_NAMES["a"] in shown, (language, width, tab, shown)
            for cell in cells:
                assert cell.evaluate(BROKEN_WORDS) == [], (language, width, tab)
            assert page_overflow(page) <= 0, (language, width, tab, spilling_content(page))
            screenshot(page, f"attack-phase-team-names-{tab}-{language}-{width}")
