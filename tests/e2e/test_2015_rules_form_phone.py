"""The 2015 round's rules typed in fields (gates, value ranges, published rows) fit a 390 px
phone in both languages: the page never scrolls sideways, each number is labelled, and what
the organizer types is saved."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.pwscup2015.models import Pwscup2015Round
from tests.e2e.helpers import log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, escaping_elements, page_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_rules_fields_fit_a_phone_and_save(web, e2e_world, screenshot, language):
    world, page = e2e_world, web
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    log_in(page, "organizer")
    if language != "en":
        switch_language(page, language)
    page.goto(
        reverse("pwscup2015_console:round_edit", args=[world.competition.slug, world.round.slug])
    )
    expect(page.get_by_test_id("gate-row-U1")).to_be_visible()
    assert escaping_elements(page) == []
    assert page_overflow(page) <= 0
    # Each gate's inputs are on screen, not behind the table's own scroll.
    for name in ("gate_U1_min", "gate_U1_max", "range_0_max", "published_rows"):
        box = page.locator(f"input[name={name}]").bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= WIDTH, (name, box)
    label = "U1 at most" if language == "en" else "U1 以下"
    page.get_by_label(label, exact=True).fill("2000")
    age = world.round.config["columns"].index("age")
    page.locator(f"input[name=range_{age}_min]").fill("13")
    page.locator(f"input[name=range_{age}_max]").fill("90")
    page.locator("input[name=published_rows]").fill("150")
    page.locator("input[name=allow_attack_before_close]").check()
    screenshot(page, f"phone-2015-rules-form-{language}")
    with page.expect_navigation():
        page.get_by_test_id("round-edit-form").locator("button[type=submit]").click()
    game = Pwscup2015Round.objects.get(pk=world.round.pk)
    assert game.utility_gates == {"U1": 2000}
    assert game.value_ranges == {"age": {"min": 13, "max": 90}}
    assert game.published_rows == 150
