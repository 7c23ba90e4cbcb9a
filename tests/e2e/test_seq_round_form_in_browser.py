"""A lecturer (an organizer, not a superuser) creates a sequential round in Chromium from the
console's fields, the "advanced JSON" box left closed as the page renders it: the round is
made (the box once held ``null`` and every submission was refused)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from pwscup.sequential.models import SequentialRound
from tests.e2e.helpers import log_in
from tests.pwscup.seq_web_world import fixture

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_a_sequential_round_from_the_fields_in_chromium(web, e2e_world):
    page, world = web, e2e_world
    assert not world.organizer.is_superuser
    log_in(page, "organizer")
    page.goto(reverse("sequential_console:create", args=[world.competition.slug]))
    form = page.get_by_test_id("seq-create")
    expect(page.get_by_test_id("seq-advanced")).not_to_have_attribute("open", "")
    expect(form.locator("textarea[name=config]")).to_have_value("")
    form.locator("input[name=name]").fill("Sequential by fields")
    form.locator("input[name=slug]").fill("seq")
    form.locator("input[name=master]").set_input_files(
        {"name": "master.csv", "mimeType": "text/csv", "buffer": fixture("zhang_master.csv")}
    )
    with page.expect_navigation():
        page.get_by_test_id("seq-create-submit").click()
    assert page.url.endswith(reverse("console:round", args=[world.competition.slug, "seq"]))
    config = SequentialRound.objects.get(round__slug="seq").config
    assert config["qi"] == {"Age": "num", "Zip": "num"} and config["n_releases"] == 2
