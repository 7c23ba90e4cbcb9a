"""The results archive in the browser: an organizer (staff, not a superuser) publishes the
archive of a published round from the console, a participant downloads it from the
competition page; the console page fits a phone in both languages."""

import io
import json
import zipfile
from pathlib import Path

import pytest
from playwright.sync_api import expect

from pwscup.archives.models import ResultsArchive
from tests.e2e.helpers import log_in, switch_language
from tests.e2e.test_phone_width import HEIGHT, WIDTH, check_page
from tests.pwscup.archive_world import data_lines, play_2015

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


def test_an_organizer_publishes_and_a_participant_downloads(web, e2e_world, screenshot):
    page, world = web, e2e_world
    world.organizer.is_staff = True
    world.organizer.save(update_fields=["is_staff"])
    assert not world.organizer.is_superuser
    play_2015(world)
    page.set_viewport_size({"width": WIDTH, "height": HEIGHT})
    log_in(page, "organizer")
    page.goto(f"/console/{world.competition.slug}/")
    with page.expect_navigation():
        page.get_by_test_id("archives-console-link").click()
    expect(page.get_by_test_id("archive-round-r1")).to_be_visible()
    for key in ("original", "samples", "permutations", "ground_truth"):
        expect(page.get_by_test_id(f"secret-{key}")).not_to_be_checked()
    check_page(page, screenshot, "archive-console-en-390")
    switch_language(page, "ja")
    expect(page.get_by_test_id("archive-publish-button")).to_contain_text("第 1 版を公開")
    expect(page.locator(".notice").first).to_contain_text("警告")
    check_page(page, screenshot, "archive-console-ja-390")
    switch_language(page, "en")
    with page.expect_navigation():
        page.get_by_test_id("archive-publish-button").click()
    expect(page.get_by_test_id("message")).to_contain_text("Version 1 of the archive is published")
    expect(page.get_by_test_id("archive-version-1")).to_be_visible()
    screenshot(page, "archive-console-published-en-390")
    archive = ResultsArchive.objects.get()
    assert archive.secrets == [] and archive.created_by_id == world.organizer.pk

    participant = page.context.browser.new_context(
        base_url=page.url.split("/console/")[0], accept_downloads=True
    )
    other = participant.new_page()
    try:
        log_in(other, "team-b")
        other.goto(f"/c/{world.competition.slug}/")
        link = other.get_by_test_id("archive-latest")
        expect(link).to_contain_text("Download version 1")
        with other.expect_download() as download_info:
            link.click()
        download = download_info.value
        assert download.suggested_filename == "e2e-results-v1.zip"
        content = Path(download.path()).read_bytes()
    finally:
        participant.close()
    with zipfile.ZipFile(io.BytesIO(content)) as zipped:
        members = {name: zipped.read(name) for name in zipped.namelist()}
    manifest = json.loads(members["manifest.json"])
    assert manifest["version"] == 1 and manifest["secrets"] == []
    assert "rounds/r1/final_anonymization.csv" in members
    everything = b"".join(members.values())
    assert world.original not in everything
    assert not [row for row in data_lines(world.original) if row in everything]
