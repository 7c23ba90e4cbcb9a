"""Shared set-up of the presentations' tests: a window on the world's round, uploads of
hand-made PDFs, the 2015 round's results published."""

import datetime as dt
import struct

from django.core.files.uploadedfile import SimpleUploadedFile
from django.utils import timezone

from pwscup.presentations import services
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.pdfs import minimal_pdf

HOUR = dt.timedelta(hours=1)


def window_for(world, *, round=..., open_now=True, **fields):
    now = timezone.now()
    values = {
        "opens_at": now - HOUR if open_now else now - 3 * HOUR,
        "closes_at": now + HOUR if open_now else now - 2 * HOUR,
        **fields,
    }
    return services.presentation_window_create(
        competition=world.competition,
        user=world.organizer,
        round=world.round if round is ... else round,
        **values,
    )


def pdf_file(content: bytes | None = None, name: str = "slides.pdf", content_type=None):
    return SimpleUploadedFile(
        name,
        minimal_pdf() if content is None else content,
        content_type=content_type or "application/pdf",
    )


def upload(world, window, letter="a", content=None, *, name="slides.pdf", now=None, **kwargs):
    return services.slides_upload(
        window=window,
        team=world.teams[letter],
        user=world.users[letter],
        uploaded_file=pdf_file(content, name),
        now=now,
        **kwargs,
    )


def rendered(slides):
    services.slides_render(slides_id=slides.pk)
    slides.refresh_from_db()
    return slides


def close(window):
    now = timezone.now()
    type(window).objects.filter(pk=window.pk).update(opens_at=now - 3 * HOUR, closes_at=now - HOUR)
    window.refresh_from_db()
    return window


def publish_results(round_):
    Pwscup2015Round.objects.filter(round=round_).update(results_published=True)
    round_.refresh_from_db()


def png_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a PNG's IHDR chunk."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])
