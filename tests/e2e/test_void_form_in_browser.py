"""The console's *Void or restore uploads* page in Chromium, as a newcomer's browser reads it
(Japanese on a 390 px phone, English on a laptop): the Void… link of an upload fills the form
in and puts the cursor in the reason; the form posted as the browser renders it, with an id
and a time both given, comes back with the error beside the time and every value as typed;
with the time cleared it voids the upload, which leaves the table of counted uploads."""

import pytest

from pwscup.scorer.models import Attack
from tests.e2e.test_phone_width import escaping_elements, page_overflow

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

BOTH = {"ja": "どちらか一方", "en": "not both"}


@pytest.mark.parametrize("newcomer", ["ja", "en"], indirect=True)
def test_the_void_link_fills_the_form_and_a_refused_post_keeps_what_was_typed(
    newcomer, cookie_log_in, screenshot
):
    from tests.pwscup.test_scorer_voids import played

    language, page = newcomer
    world, attacks = played()
    c1 = attacks["c1"].pk
    cookie_log_in(page, world.organizer.username)
    page.goto(f"/console/{world.competition.slug}/r/{world.round.slug}/voids/")
    if language == "ja":
        assert page_overflow(page) <= 0 and escaping_elements(page) == []
    screenshot(page, f"void-form-{language}")

    with page.expect_navigation():
        page.get_by_test_id(f"void-link-attack-{c1}").click()

    form = page.get_by_test_id("void-form")
    assert form.locator("select[name=type]").input_value() == "attack"
    assert page.get_by_test_id("void-upload").input_value() == str(c1)
    assert page.evaluate("document.activeElement.name") == "reason"
    page.keyboard.type("Sent twice")
    page.get_by_test_id("void-before").fill("2030-01-02T03:04")
    with page.expect_navigation():
        page.get_by_test_id("void-submit").click()

    before_group = form.locator("[data-field=before]")
    assert BOTH[language] in before_group.inner_text()
    assert page.get_by_test_id("void-upload").input_value() == str(c1)
    assert page.get_by_test_id("void-before").input_value() == "2030-01-02T03:04"
    assert page.get_by_test_id("void-reason").input_value() == "Sent twice"
    assert not Attack.objects.filter(voided_at__isnull=False).exists()
    if language == "ja":
        assert page_overflow(page) <= 0 and escaping_elements(page) == []
    screenshot(page, f"void-form-refused-{language}")

    page.get_by_test_id("void-before").fill("")
    with page.expect_navigation():
        page.get_by_test_id("void-submit").click()

    assert page.get_by_test_id(f"voided-{c1}").is_visible()
    assert page.get_by_test_id(f"counted-attack-{c1}").count() == 0
    assert Attack.objects.get(pk=c1).void_reason == "Sent twice"
