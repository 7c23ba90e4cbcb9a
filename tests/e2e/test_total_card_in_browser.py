"""The round's Total card on its console page, as a browser lays it out: the formula field is
wide enough to read PWSCup 2024's formula (some 90 characters), the list of names right under
it and the N field under them, each on its own line, at a desk's width and at a phone's."""

import pytest
from django.urls import reverse

from tests.e2e.helpers import log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, page_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("width", "language"), [(1280, "ja"), (WIDTH, "en")])
def test_the_total_card_stacks_its_fields_and_gives_the_formula_the_width(
    web, e2e_world, screenshot, width, language
):
    world, page = e2e_world, web
    page.set_viewport_size({"width": width, "height": HEIGHT})
    log_in(page, "organizer")
    if language != "en":
        switch_language(page, language)
    page.goto(reverse("console:round", args=[world.competition.slug, world.round.slug]))
    form = page.get_by_test_id("round-total-form")
    formula = form.locator("input[name=total_formula]").bounding_box()
    top_n = form.locator("input[name=attack_top_n]").bounding_box()
    names = form.get_by_test_id("round-total-names").bounding_box()
    card = form.bounding_box()
    # The walk of 2024 found the formula in a 16rem box, the N field's label beside it and
    # the names beside the N field.
    assert formula["width"] >= 0.8 * (card["width"] - 40), (formula, card)
    assert names["y"] >= formula["y"] + formula["height"], (names, formula)
    assert top_n["y"] >= names["y"] + names["height"], (top_n, names)
    assert page_overflow(page) <= 0
    screenshot(page, f"total-card-{width}-{language}")
