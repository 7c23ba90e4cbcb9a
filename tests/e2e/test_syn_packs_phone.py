"""A synthetic round offering data packs, at phone width (390 px), in both languages: the
console's population upload stays inside its dashed box (its field paragraph, a flex item
of ``form.upload``, shrinks), and the team's Data tab says in the pick form that the first
download fixes the pick, with nothing wider than the screen."""

import pytest

from tests.e2e.helpers import PASSWORD, keep_screenshot, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, escaping_elements, page_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def packs_world():
    from pwscup.competitions.choice_services import choices_set
    from pwscup.synthetic import services
    from tests.pwscup.syn_world import syn_world
    from tests.pwscup.test_syn_choice import PACKS, add_team, adult_slice

    world = syn_world(slug="synphone", letters="", password=PASSWORD)
    choices_set(user=world.organizer, round=world.round, rows=PACKS[:2])
    services.population_upload(
        synthetic=world.synthetic, key="p1", table=adult_slice(0, 3000), filename="p1.csv"
    )
    add_team(world, "a")
    world.users["a"].set_password(PASSWORD)
    world.users["a"].save()
    return world


def phone_login(page, username: str, language: str) -> None:
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", PASSWORD)
    with page.expect_navigation():
        page.click("form.card button[type=submit]")
    if language != "en":
        switch_language(page, language)


def assert_inside_its_box(page, form, selector: str, language: str) -> None:
    """Each element of ``form`` matching ``selector`` ends inside the form's box, and nothing
    of the page runs past the screen."""
    box = form.bounding_box()
    for element in form.locator(selector).all():
        inner = element.bounding_box()
        assert inner["x"] + inner["width"] <= box["x"] + box["width"] + 0.5, (language, inner)
    assert escaping_elements(page) == [], language
    assert page_overflow(page) <= 0, language


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_population_upload_fits_its_box_on_a_phone(web, packs_world, language):
    world, page = packs_world, web
    phone_login(page, world.organizer.username, language)
    page.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/")
    form = page.get_by_test_id("syn-population-form")
    assert_inside_its_box(page, form, "p, input[type=file], select", language)
    keep_screenshot(page.get_by_test_id("syn-populations"), f"phone-syn-populations-{language}")


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_pick_form_says_the_first_download_fixes_it_on_a_phone(web, packs_world, language):
    world, page = packs_world, web
    phone_login(page, world.users["a"].username, language)
    from django.urls import reverse

    page.goto(reverse("round_tab", args=[world.competition.slug, world.round.slug, "data"]))
    note = page.get_by_test_id("data-choice-form").get_by_test_id("data-choice-form-note")
    words = {"en": "first download", "ja": "最初にダウンロード"}[language]
    assert words in note.inner_text()
    assert escaping_elements(page) == [], language
    assert page_overflow(page) <= 0, language
    keep_screenshot(page.get_by_test_id("data-choice"), f"phone-syn-pick-{language}")
