"""Competition bundles in the browser: the demo's organizer (staff, not a superuser) exports
the demo competition from the console and imports it as a new competition; the import page
fits a phone in both languages and shows a refusal in words, every error of a spoiled bundle
on a line of its own."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from pwscup.bundles.services import competition_export
from pwscup.competitions.models import Competition
from tests.e2e.helpers import log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, check_page
from tests.pwscup.bundle_helpers import manifest_of, rebuilt

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


def _spoiled_demo(tmp_path):
    """The demo exported, its DP round and seq-paper spoiled as a user once found them: a
    level's misspelt key, a bad ε, a close that is not a duration; a release's close and a
    limit."""
    demo = Competition.objects.get(slug="demo")
    data = competition_export(competition=demo, user=demo.organizers.get())

    def spoil(manifest):
        dp = next(entry for entry in manifest["rounds"] if entry["kind"] == "dp")
        dp["settings"]["config"]["levels"][0]["epsilom"] = "1"
        dp["settings"]["config"]["levels"][1]["epsilon"] = "-1"
        dp["settings"]["schedule"]["closes_at"] = "next monday"
        seq = next(entry for entry in manifest["rounds"] if entry["slug"] == "seq-paper")
        seq["settings"]["schedule"]["step_closes"] = ["P1D", "tomorrow"]
        seq["settings"]["limits"]["daily_limit"] = 0
        return [
            (dp["slug"], "config.levels[0].epsilom"),
            (dp["slug"], "config.levels[1].epsilon"),
            (dp["slug"], "schedule.closes_at"),
            ("seq-paper", "schedule.step_closes[1]"),
            ("seq-paper", "limits.daily_limit"),
        ]

    found = []
    bundle = tmp_path / "spoiled.zip"
    bundle.write_bytes(rebuilt(data, change=lambda manifest: found.extend(spoil(manifest))))
    return bundle, found


def test_one_import_shows_every_error_by_its_path_on_a_phone(web, screenshot, tmp_path):
    page = web
    call_command("load_demo")
    bundle, spoiled = _spoiled_demo(tmp_path)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    log_in(page, "organizer", "pwscup-demo")
    for language in ("en", "ja"):
        page.goto("/console/import/")
        if language == "ja":
            switch_language(page, "ja")
        page.set_input_files("input[name=bundle]", str(bundle))
        page.fill("input[name=slug]", "demo-spoiled")
        page.fill("input[name=start]", "2031-04-01T09:00")
        with page.expect_navigation():
            page.get_by_test_id("bundle-import-submit").click()
        errors = page.locator(".errorlist li").all_inner_texts()
        for slug, path in spoiled:  # one line each, naming its round and its path
            assert any(f"({slug}).settings.{path}" in line for line in errors), (path, errors)
        check_page(page, screenshot, f"bundle-import-errors-{language}-390")
    switch_language(page, "en")
    assert not Competition.objects.filter(slug="demo-spoiled").exists()
