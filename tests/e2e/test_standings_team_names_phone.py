"""The competition's standings at 390 px with Japanese team names: the team column wrapped
them letter by letter (チー / ムC) to fit the screen; each name stays on one line, the table
scrolling in its frame as the other tables do; the chart above it cuts a long name short
within the picture."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, page_overflow, spilling_content
from tests.pwscup.archive_world import play_2015

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = {"a": "チームA", "b": "チームB 匿名化研究室", "c": "チームC"}
LINES_OF = "e => { const r = document.createRange(); r.selectNodeContents(e); return r.getClientRects().length; }"


@pytest.mark.parametrize("language", ["ja", "en"])
def test_japanese_team_names_stay_whole_on_a_phone(
    web, e2e_world, language, cookie_log_in, screenshot
):
    from pwscup.accounts.models import Team
    from pwscup.competitions.standings_services import EntryInput, standings_update

    world, page = e2e_world, web
    for letter, name in NAMES.items():
        Team.objects.filter(pk=world.teams[letter].pk).update(name=name)
    play_2015(world)
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
