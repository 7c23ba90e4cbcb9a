"""A judged award's name may be 200 characters with no space in it (a long English word, a
name written as one token): at 390 px it wraps inside the screen wherever it is shown, on
the competition's page, on the round's Results tab and as the heading of the award's edit
page in the console, in both languages."""

import pytest
from django.urls import reverse
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

NAME_EN = "Best" + "anonymization" * 15  # 199 letters, no space
NAME_JA = "最優秀" + "匿名加工" * 49  # 199 characters


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_long_award_name_stays_on_a_phone_screen(web, e2e_world, language, cookie_log_in):
    from pwscup.accounts.services import award_create

    world, page = e2e_world, web
    award = award_create(
        user=world.organizer,
        competition=world.competition,
        team=world.teams["a"],
        round=world.round,
        name_en=NAME_EN,
        name_ja=NAME_JA,
        citation="",
    )
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    cookie_log_in(page, "organizer")
    if language != "en":
        switch_language(page, language)
    slug = world.competition.slug
    shown = NAME_EN if language == "en" else NAME_JA
    for address in (
        f"/c/{slug}/",
        world.round_url() + "results/",
        reverse("console:award_edit", args=[slug, award.pk]),
    ):
        page.goto(address)
        expect(page.get_by_text(shown).first).to_be_visible()
        assert escaping_elements(page) == [], (address, language)
        assert page_overflow(page) <= 0, (address, language, spilling_content(page))
