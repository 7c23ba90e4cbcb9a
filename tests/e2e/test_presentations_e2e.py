"""The presentation phase in a browser: a team uploads its slides in the window and a worker
draws the preview; after the window closed and the round's results are published, an
organizer (staff, not superuser) publishes them from the console behind its confirmation;
another participant sees the preview and downloads the PDF, in English, in Japanese and at
phone width (screenshots kept under ``PWSCUP_E2E_SCREENSHOTS``)."""

import datetime as dt
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from pwscup.accounts.services import organizer_grant, user_create
from pwscup.presentations.models import PresentationWindow, Slides
from tests.e2e.helpers import PASSWORD, keep_screenshot, log_in, switch_language
from tests.e2e.test_phone_width import page_overflow
from tests.pwscup.pdfs import minimal_pdf
from tests.pwscup.presentations_support import publish_results, window_for

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]

SLIDES = minimal_pdf("Team A: k-anonymity and linkage")


def shot(page, name: str) -> None:
    keep_screenshot(page, name, full_page=True)


def new_page(chromium, live_server, *, locale="en-US", width=1280, height=900):
    context = chromium.new_context(
        base_url=live_server.url,
        locale=locale,
        accept_downloads=True,
        viewport={"width": width, "height": height},
    )
    context.set_default_timeout(30_000)
    blocked = []
    page = context.new_page()
    page.on(
        "console",
        lambda message: "Content Security Policy" in message.text and blocked.append(message.text),
    )
    return context, page, blocked


def test_slides_from_upload_to_every_participant(
    chromium, live_server, e2e_world, celery_worker_process
):
    world = e2e_world
    slug = world.competition.slug
    staff = user_create(username="staff-organizer", password=PASSWORD, is_staff=True)
    organizer_grant(user=staff, competition=world.competition)
    window = window_for(world, title="Policy talks", total_limit=3)

    # Team A uploads its slides, from the competition page's card.
    context, page, blocked = new_page(chromium, live_server)
    log_in(page, "team-a")
    page.goto(f"/c/{slug}/")
    with page.expect_navigation():
        page.get_by_test_id("presentations-link").click()
    form = page.get_by_test_id(f"slides-form-{window.pk}")
    form.get_by_test_id("slides-file").set_input_files(
        {"name": "slides.pdf", "mimeType": "application/pdf", "buffer": SLIDES}
    )
    form.get_by_test_id("slides-anonymization-policy").fill("k-anonymity (k=5) on the QIs.")
    form.get_by_test_id("slides-attack-policy").fill("Linkage on age and ZIP, then ties.")
    with page.expect_navigation():
        form.get_by_test_id("slides-submit").click()
    expect(page.get_by_test_id("message").first).to_contain_text("Slides received (#1)")
    # The page follows the worker without a reload.
    expect(page.get_by_test_id("slides-status-1")).to_have_attribute(
        "data-status", "finished", timeout=120_000
    )
    shot(page, "team-a-uploaded-en")
    assert Slides.objects.get().preview
    context.close()
    assert blocked == []

    # The window closes; the round's results are published.
    now = timezone.now()
    PresentationWindow.objects.filter(pk=window.pk).update(
        opens_at=now - dt.timedelta(hours=3), closes_at=now - dt.timedelta(minutes=1)
    )
    publish_results(world.round)

    # The staff organizer publishes from the console, behind the confirmation.
    context, page, blocked = new_page(chromium, live_server)
    log_in(page, "staff-organizer")
    page.goto(f"/console/{slug}/")
    expect(page.get_by_test_id("console-presentations")).to_contain_text("1 / 3")
    with page.expect_navigation():
        page.get_by_test_id("console-presentations-link").click()
    with page.expect_navigation():
        page.get_by_test_id("window-publish").click()
    shot(page, "organizer-confirm-en")
    with page.expect_navigation():
        page.get_by_test_id("confirm").click()
    expect(page.get_by_test_id("window-published")).to_be_visible()
    shot(page, "organizer-console-en")
    context.close()
    assert blocked == []

    # Team B sees the preview and downloads the PDF: English on a laptop, then Japanese, then
    # Japanese at phone width.
    views = [("en-US", 1280, 900, "en"), ("ja-JP", 1280, 900, "ja"), ("ja-JP", 390, 844, "ja")]
    for locale, width, height, language in views:
        context, page, blocked = new_page(
            chromium, live_server, locale=locale, width=width, height=height
        )
        log_in(page, "team-b")
        page.goto(f"/c/{slug}/presentations/")
        if page.evaluate("document.documentElement.lang") != language:
            switch_language(page, language)
        card = page.get_by_test_id("gallery-teamA")
        image = card.get_by_test_id("preview-teamA")
        expect(image).to_be_visible()
        page.wait_for_function("e => e.complete && e.naturalWidth > 0", arg=image.element_handle())
        assert image.evaluate("e => e.naturalWidth") == 800
        expect(card).to_contain_text("Linkage on age and ZIP")
        with page.expect_download() as download:
            card.get_by_test_id("download-teamA").click()
        assert Path(download.value.path()).read_bytes() == SLIDES
        assert download.value.suggested_filename.endswith(".pdf")
        name = f"gallery-{language}-{width}"
        if width < 500:
            assert page_overflow(page) <= 0, name
            box = image.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= width, box
        if language == "ja":
            expect(page.locator("h1")).to_have_text("発表")
        shot(page, name)
        context.close()
        assert blocked == [], blocked
