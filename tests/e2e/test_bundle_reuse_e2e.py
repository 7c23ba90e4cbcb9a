"""Next year's class from last year's competition, in the browser: a 2015 round closed before
its attack phase opened (its attack phase opens and closes at once) is cloned and exported
from the console; an older bundle holding such a phase is refused on the import page with the
round, the phase and what to do, in Japanese. At 1280 and 390 pixels, in both languages."""

import datetime as dt

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from pwscup.competitions.models import Competition, Phase
from pwscup.competitions.services import round_phases_close
from tests.e2e.helpers import PASSWORD, log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, check_page
from tests.pwscup.bundle_helpers import creator, manifest_of, rebuilt
from tests.support import build_world

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

WIDE = {"width": 1280, "height": 900}
PHONE = {"width": WIDTH, "height": HEIGHT}


@pytest.fixture
def last_year():
    """Last year's competition: its anonymization phase ran, then the publication closed
    every phase before the attack phase opened (``round_phases_close``)."""
    world = build_world(
        slug="last-year", username=lambda slug, who: who, password=PASSWORD, attack_open=False
    )
    creator(world.organizer)
    round_phases_close(round=world.round)
    world.attack.refresh_from_db()
    assert world.attack.opens_at == world.attack.closes_at
    return world


def attack_phase_length(slug: str) -> dt.timedelta:
    phase = Phase.objects.get(round__competition__slug=slug, kind=Phase.Kind.ATTACK)
    return phase.closes_at - phase.opens_at


def planned_attack_length(slug: str) -> dt.timedelta:
    phase = Phase.objects.get(round__competition__slug=slug, kind=Phase.Kind.ATTACK)
    opens_at, closes_at = phase.planned_window()
    return closes_at - opens_at


def clone(page, *, slug: str) -> None:
    page.fill("input[name=slug]", slug)
    page.fill(
        "input[name=start]", (timezone.now() + dt.timedelta(days=365)).strftime("%Y-%m-%dT%H:%M")
    )
    page.select_option("select[name=timezone]", "Asia/Tokyo")
    with page.expect_navigation():
        page.get_by_test_id("bundle-clone-submit").click()


def test_last_years_competition_clones_exports_and_an_old_bundle_says_what_to_do(
    web, last_year, screenshot, tmp_path
):
    page = web
    page.set_viewport_size(WIDE)
    log_in(page, "organizer")

    # Clone, in English, at 1280 px.
    page.goto("/console/last-year/")
    with page.expect_navigation():
        page.get_by_test_id("bundle-clone").click()
    expect(page.get_by_test_id("bundle-schedule-note")).to_contain_text("planned dates")
    expect(page.get_by_test_id("bundle-clone-form")).to_contain_text("/c/<address>/")
    screenshot(page, "bundle-clone-en-1280")
    clone(page, slug="next-year")
    expect(page.get_by_test_id("message")).to_contain_text("Competition cloned")
    assert page.url.endswith("/console/next-year/")
    screenshot(page, "bundle-cloned-en-1280")
    # The clone runs the attack phase for its planned length, which Close now cut to nothing.
    planned = planned_attack_length("last-year")
    assert planned > dt.timedelta(0)
    assert attack_phase_length("next-year") == planned

    # Export: the bundle gives the attack phase its planned length too.
    page.goto("/console/last-year/")
    with page.expect_download() as download_info:
        page.get_by_test_id("bundle-export").click()
    bundle = tmp_path / "last-year-bundle.zip"
    download_info.value.save_as(str(bundle))
    data = bundle.read_bytes()
    attack = manifest_of(data)["rounds"][0]["settings"]["phases"]["attack"]
    assert attack["opens_at"] != attack["closes_at"]

    # Clone again, in Japanese, on a phone.
    page.set_viewport_size(PHONE)
    page.goto("/console/last-year/")
    with page.expect_navigation():
        page.get_by_test_id("bundle-clone").click()
    switch_language(page, "ja")
    expect(page.get_by_test_id("bundle-schedule-note")).to_contain_text("予定どおりの日程")
    expect(page.get_by_test_id("bundle-clone-form")).to_contain_text("/c/<アドレス>/")
    check_page(page, screenshot, "bundle-clone-ja-390")
    clone(page, slug="next-year-ja")
    expect(page.get_by_test_id("message")).to_contain_text("複製しました")
    check_page(page, screenshot, "bundle-cloned-ja-390")
    assert attack_phase_length("next-year-ja") == planned

    # A bundle of an older export: its attack phase closes when it opens.
    def collapsed(manifest):
        phase = manifest["rounds"][0]["settings"]["phases"]["attack"]
        phase["closes_at"] = phase["opens_at"]

    old = tmp_path / "old-bundle.zip"
    old.write_bytes(rebuilt(data, change=collapsed))
    for language, size, words in (
        ("ja", PHONE, ("ラウンド「Round」（r1）の攻撃フェーズ", "もう一度書き出す")),
        ("en", WIDE, ("Round “Round” (r1), Attack phase", "Export the competition again")),
    ):
        page.set_viewport_size(size)
        page.goto("/console/import/")
        if page.evaluate("document.documentElement.lang") != language:
            switch_language(page, language)
        page.set_input_files("input[name=bundle]", str(old))
        page.fill("input[name=slug]", f"old-{language}")
        page.fill("input[name=start]", "2031-04-01T09:00")
        with page.expect_navigation():
            page.get_by_test_id("bundle-import-submit").click()
        refusal = page.locator(".errorlist")
        for word in words:
            expect(refusal).to_contain_text(word)
        name = f"bundle-import-old-{language}-{size['width']}"
        if size is PHONE:
            check_page(page, screenshot, name)
        else:
            screenshot(page, name)
    assert not Competition.objects.filter(slug__startswith="old-").exists()
