"""A lecturer (an organizer, not a superuser) creates a DP round in Chromium by filling the
console's fields, never the JSON: a bad ε is shown next to the levels field, the fixed form
creates the round. The other pages of the lecturer's report are looked at in both languages at
phone and laptop width: the sequential round's form, the 2015 wizard's roles with their
explanations, the console's 403 for a fresh account, the slide limit in MB."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.accounts.services import user_create
from pwscup.dp.models import DPRound
from tests.e2e.helpers import PASSWORD, switch_language
from tests.e2e.test_phone_width import check_page
from tests.pwscup.dp_world import movielens_csv
from tests.support import adult_head

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

# The tests look at the console's forms, not at the log-in form (its own journeys fill it
# in): they log in by a session cookie (``cookie_log_in``).
SIZES = {"390": {"width": 390, "height": 844}, "1280": {"width": 1280, "height": 900}}


def _look(page, screenshot, name: str, width: str) -> None:
    if width == "390":
        check_page(page, screenshot, name)  # nothing wider than the phone, header usable
    else:
        screenshot(page, name)


def test_a_dp_round_from_the_fields_in_chromium(web, e2e_world, screenshot, cookie_log_in):
    page, world = web, e2e_world
    assert not world.organizer.is_superuser
    page.set_viewport_size(SIZES["1280"])
    cookie_log_in(page, "organizer")
    page.goto(reverse("dp_console:create", args=[world.competition.slug]))
    form = page.get_by_test_id("dp-create-form")
    expect(form.locator("input[name=attribute-0-name]")).to_have_value("gender")
    expect(page.get_by_test_id("dp-advanced")).not_to_have_attribute("open", "")
    form.locator("input[name=name]").fill("MovieLens by fields")
    form.locator("input[name=slug]").fill("ml")
    form.locator("input[name=table]").set_input_files(
        {"name": "hidden.csv", "mimeType": "text/csv", "buffer": movielens_csv()}
    )
    form.locator("input[name=levels]").fill("0.5, 0")
    form.locator("input[name=max_charges_per_level]").fill("200")
    with page.expect_navigation():
        page.get_by_test_id("dp-create-submit").click()
    # The level at fault is named next to the levels field; the file must be chosen again.
    levels = page.locator("input[name=levels]")
    error = page.locator("ul.errorlist", has_text="Level 'eps-0' has epsilon 0")
    expect(error).to_be_visible()
    assert error.bounding_box()["y"] < levels.bounding_box()["y"] + 200
    screenshot(page, "dp-form-error-en-1280")
    form.locator("input[name=levels]").fill("0.5, 2")
    form.locator("input[name=table]").set_input_files(
        {"name": "hidden.csv", "mimeType": "text/csv", "buffer": movielens_csv()}
    )
    with page.expect_navigation():
        page.get_by_test_id("dp-create-submit").click()
    assert page.url.endswith(reverse("console:round", args=[world.competition.slug, "ml"]))
    config = DPRound.objects.get(round__slug="ml").config
    assert [level["id"] for level in config["levels"]] == ["eps-0.5", "eps-2"]
    assert config["workload"] == [{"id": "gender_age", "attributes": ["gender", "age"]}]
    assert config["max_charges_per_level"] == 200


@pytest.mark.parametrize("language", ["en", "ja"])
@pytest.mark.parametrize("width", ["390", "1280"])
def test_the_lecturer_s_pages_in_both_languages(
    web, e2e_world, screenshot, language, width, cookie_log_in
):
    page, world = web, e2e_world
    slug = world.competition.slug
    page.set_viewport_size(SIZES[width])
    user_create(username="fresh", password=PASSWORD)
    cookie_log_in(page, "fresh")
    switch_language(page, language)
    response = page.goto("/console/")
    assert response.status == 403
    expect(page.get_by_test_id("error-403")).to_contain_text("docs/organizers.md")
    _look(page, screenshot, f"console-403-{language}-{width}", width)

    page.context.clear_cookies()
    cookie_log_in(page, "organizer")
    switch_language(page, language)
    for name, address in (
        ("dp-form", reverse("dp_console:create", args=[slug])),
        ("seq-form", reverse("sequential_console:create", args=[slug])),
        ("slides-window", reverse("presentations:window_new", args=[slug])),
    ):
        page.goto(address)
        _look(page, screenshot, f"{name}-{language}-{width}", width)
    page.goto(reverse("pwscup2015_console:wizard_upload", args=[slug]))
    page.get_by_test_id("wizard-upload").locator("input[name=original]").set_input_files(
        {"name": "adult.csv", "mimeType": "text/csv", "buffer": adult_head(30)}
    )
    with page.expect_navigation():
        page.get_by_test_id("wizard-upload").locator("button[type=submit]").click()
    page.goto(reverse("pwscup2015_console:wizard_roles", args=[slug]))
    expect(page.get_by_test_id("role-notes")).to_be_visible()
    _look(page, screenshot, f"wizard-roles-{language}-{width}", width)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_2015_wizard_s_review_fits_a_phone(web, e2e_world, screenshot, language, cookie_log_in):
    """The last step lists every choice, labels as long as "Which submission represents a
    team" next to their values: on a phone each label reads above its value."""
    page, world = web, e2e_world
    slug = world.competition.slug
    page.set_viewport_size(SIZES["390"])
    cookie_log_in(page, "organizer")
    switch_language(page, language)
    page.goto(reverse("pwscup2015_console:wizard_upload", args=[slug]))
    page.get_by_test_id("wizard-upload").locator("input[name=original]").set_input_files(
        {"name": "adult.csv", "mimeType": "text/csv", "buffer": adult_head(30)}
    )
    with page.expect_navigation():
        page.get_by_test_id("wizard-upload").locator("button[type=submit]").click()
    dates = {
        "anonymization_opens_at": "2031-04-01T09:00",
        "anonymization_closes_at": "2031-04-10T09:00",
        "attack_opens_at": "2031-04-10T09:00",
        "attack_closes_at": "2031-04-20T09:00",
    }
    for step in ("roles", "data", "phases", "rules"):
        page.goto(reverse(f"pwscup2015_console:wizard_{step}", args=[slug]))
        form = page.get_by_test_id(f"wizard-{step}")
        if step == "phases":
            form.locator("input[name=name]").fill("Phone round")
            form.locator("input[name=slug]").fill("phone")
            for name, value in dates.items():
                form.locator(f"input[name={name}]").fill(value)
        with page.expect_navigation():
            page.get_by_test_id("wizard-next").click()
    expect(page.get_by_test_id("wizard-review")).to_contain_text("Phone round")
    _look(page, screenshot, f"wizard-review-{language}-390", "390")
