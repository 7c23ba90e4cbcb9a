"""A real Celery worker renders the slides' preview with Debian's pdftoppm, and rejects a PDF
poppler cannot read with a message."""

import pytest

from pwscup.core.files import opened
from pwscup.presentations.messages import slides_message_text
from pwscup.presentations.models import Slides
from tests.pwscup.pdfs import broken_pdf
from tests.pwscup.presentations_support import png_size, upload, window_for
from tests.support import build_world, wait_for

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def _done(slides):
    wait_for(
        lambda: Slides.objects.filter(pk=slides.pk, status__in=["finished", "failed"]).exists(),
        timeout=120,
        what="the worker to render the slides",
    )
    slides.refresh_from_db()
    return slides


def test_the_worker_renders_the_first_page_and_rejects_an_unreadable_pdf(celery_worker_process):
    world = build_world(slug="slidesworker")
    window = window_for(world)
    good = _done(upload(world, window, "a"))
    assert good.status == Slides.Status.FINISHED, good.message
    assert good.worker.startswith("test-worker-")  # a worker claimed it, not this process
    with opened(good.preview) as handle:
        png = handle.read()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert png_size(png) == (800, 450)
    assert 500 < len(png) < 200_000
    bad = _done(upload(world, window, "b", content=broken_pdf(), name="broken.pdf"))
    assert bad.status == Slides.Status.FAILED and bad.message_code == "slides.unreadable"
    assert "broken.pdf could not be read as a PDF" in slides_message_text(bad)
    assert not bad.preview
