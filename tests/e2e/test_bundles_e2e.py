"""Competition bundles in the browser: the demo's organizer (staff, not a superuser) exports
the demo competition from the console and imports it as a new competition; the import page
fits a phone in both languages and shows a refusal in words."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from pwscup.competitions.models import Competition
from tests.e2e.helpers import log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, check_page
from tests.pwscup.bundle_helpers import manifest_of

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_organizer_exports_the_demo_and_imports_it_again(web, screenshot, tmp_path):
    page = web
    call_command("load_demo")
    demo = Competition.objects.get(slug="demo")
    organizer = demo.organizers.get()
    assert organizer.is_staff and not organizer.is_superuser
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    log_in(page, "organizer", "pwscup-demo")

    page.goto("/console/demo/")
    with page.expect_download() as download_info:
        page.get_by_test_id("bundle-export").click()
    download = download_info.value
    assert download.suggested_filename == "demo-bundle.zip"
    bundle = tmp_path / "demo-bundle.zip"
    download.save_as(str(bundle))
    manifest = manifest_of(bundle.read_bytes())
    assert [r["kind"] for r in manifest["rounds"]].count("pwscup2015") == 2
    assert len(manifest["rounds"]) == 8

    page.goto("/console/")
    with page.expect_navigation():
        page.get_by_test_id("competition-import").click()
    expect(page.get_by_test_id("bundle-import-form")).to_be_visible()
    check_page(page, screenshot, "bundle-import-en-390")
    switch_language(page, "ja")
    expect(page.locator("h1")).to_have_text("コンペティションを読み込む")
    check_page(page, screenshot, "bundle-import-ja-390")

    # A file that is no bundle: the page says so, in Japanese, and keeps the form.
    garbage = tmp_path / "notes.zip"
    garbage.write_bytes(b"not a zip at all")
    page.set_input_files("input[name=bundle]", str(garbage))
    page.fill("input[name=slug]", "demo-2")
    page.fill("input[name=start]", "2031-04-01T09:00")
    with page.expect_navigation():
        page.get_by_test_id("bundle-import-submit").click()
    expect(page.locator(".errorlist")).to_contain_text("ZIP ファイルではありません")
    check_page(page, screenshot, "bundle-import-refused-ja-390")
    switch_language(page, "en")

    page.set_input_files("input[name=bundle]", str(bundle))
    page.fill("input[name=name]", "Demo, again")
    page.fill("input[name=slug]", "demo-2")
    page.fill("input[name=start]", "2031-04-01T09:00")
    page.select_option("select[name=timezone]", "Asia/Tokyo")
    with page.expect_navigation():
        page.get_by_test_id("bundle-import-submit").click()
    expect(page.get_by_test_id("message")).to_contain_text("Competition imported")
    assert page.url.endswith("/console/demo-2/")
    expect(page.get_by_test_id("console-round-round-1")).to_be_visible()
    screenshot(page, "bundle-imported-en-390")
    imported = Competition.objects.get(slug="demo-2")
    assert imported.name == "Demo, again" and list(imported.organizers.all()) == [organizer]
    assert [(r.slug, r.kind) for r in imported.rounds.all()] == [
        (r.slug, r.kind) for r in demo.rounds.all()
    ]
    assert not imported.teams.exists()
