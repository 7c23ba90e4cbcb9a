"""The standings page of a competition with two divisions (PWSCup 2021: an anonymization
and an attack division) at 390 px: a line of links to the divisions, then each under its
heading, its table scrolled within its box, nothing off the screen; the page of one
division, and the console's card listing them, in both languages."""

from decimal import Decimal

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import switch_language
from tests.e2e.test_phone_width import (
    HEIGHT,
    WIDTH,
    escaping_elements,
    page_overflow,
    spilling_content,
)

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

NAMES = {"en": ("Anonymization division", "Attack division"), "ja": ("匿名化部門", "攻撃部門")}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_two_divisions_read_on_a_phone(web, e2e_world, language, cookie_log_in):
    from pwscup.competitions.standings_services import (
        DivisionInput,
        EntryInput,
        standings_division_add,
        standings_update,
    )

    world, page = e2e_world, web
    for index, key in enumerate(("anonymization", "attack")):
        fields = {
            "user": world.organizer,
            "competition": world.competition,
            "division": DivisionInput(key, NAMES["en"][index], NAMES["ja"][index]),
            "rule": "weighted_rank",
            "entries": [EntryInput(world.round, Decimal(1), (key,))],
        }
        (standings_division_add if index else standings_update)(**fields)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    cookie_log_in(page, "organizer")
    if language != "en":
        switch_language(page, language)
    slug = world.competition.slug
    first, second = NAMES[language]
    for address, headings in (
        (f"/c/{slug}/standings/", (first, second)),
        (f"/c/{slug}/standings/attack/", (second,)),
        (f"/console/{slug}/", (first, second)),
    ):
        page.goto(address)
        for name in headings:
            expect(page.get_by_text(name, exact=True).first).to_be_visible()
        assert escaping_elements(page) == [], (address, language)
        assert page_overflow(page) <= 0, (address, language, spilling_content(page))
    page.goto(f"/c/{slug}/standings/")
    expect(page.get_by_test_id("standings-table")).to_have_count(2)
    for region in page.get_by_test_id("standings-table").all():
        scroller = region.locator("xpath=..")
        box = scroller.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (language, box)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_grand_ranking_of_two_divisions_reads_on_a_phone(web, e2e_world, language, cookie_log_in):
    """PWSCup 2023: a grand ranking counting the two divisions' ranks. Its page (a column
    per counted division) and its console form (the divisions' rows, ticked, with their
    weights) stay within 390 px; the counted division's form says what counts it."""
    from pwscup.competitions.standings_services import (
        CountedInput,
        DivisionInput,
        EntryInput,
        standings_division_add,
    )

    world, page = e2e_world, web
    counted = []
    for index, key in enumerate(("anonymization", "attack")):
        division = standings_division_add(
            user=world.organizer,
            competition=world.competition,
            division=DivisionInput(key, NAMES["en"][index], NAMES["ja"][index]),
            rule="weighted_rank",
            entries=[EntryInput(world.round, Decimal(1), (key,))],
        )
        counted.append(CountedInput(division, Decimal(1)))
    standings_division_add(
        user=world.organizer,
        competition=world.competition,
        division=DivisionInput("grand", "Grand ranking", "総合順位"),
        rule="weighted_rank",
        entries=[],
        counted=counted,
    )
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    cookie_log_in(page, "organizer")
    if language != "en":
        switch_language(page, language)
    slug = world.competition.slug
    for address, testid in (
        (f"/c/{slug}/standings/grand/", "standings-division-column-attack"),
        (f"/console/{slug}/standings/grand/", "standings-division-row-attack"),
        (f"/console/{slug}/standings/attack/", "standings-counted-by"),
    ):
        page.goto(address)
        expect(page.get_by_test_id(testid)).to_be_visible()
        assert escaping_elements(page) == [], (address, language)
        assert page_overflow(page) <= 0, (address, language, spilling_content(page))
    page.goto(f"/console/{slug}/standings/grand/")
    expect(page.locator("input[name=divisions-1-counts]")).to_be_checked()
