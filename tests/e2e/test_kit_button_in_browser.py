"""The starter kit from the round page, in a browser, at phone width in both languages."""

import io
import zipfile

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import log_in, open_tab, switch_language

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_kit_button_downloads_the_zip_at_phone_width(web, e2e_world, screenshot, lang):
    web.set_viewport_size({"width": 390, "height": 844})
    log_in(web, "team-a")
    web.goto(e2e_world.round_url())
    open_tab(web, "data")
    switch_language(web, lang)
    button = web.get_by_test_id("download-kit")
    expect(button).to_have_text(
        "Download the starter kit (ZIP)"
        if lang == "en"
        else "スターターキットをダウンロード（ZIP）"
    )
    box = button.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390, "the button fits the phone width"
    screenshot(web, f"kit_button_{lang}")
    with web.expect_download() as download:
        button.click()
    path = download.value.path()
    assert download.value.suggested_filename == "r1_kit.zip"
    with zipfile.ZipFile(io.BytesIO(open(path, "rb").read())) as zf:
        assert {"README.md", "anonymize_example.py", "attack_example.py", "attr_depth.json"} <= set(
            zf.namelist()
        )
