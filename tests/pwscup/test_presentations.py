"""The presentations' services and selectors on PostgreSQL: the type read from the bytes, the
size cap, the window's dates and limits, the team-wide bounds, the preview, publication and
what the results archive gets."""

import datetime as dt

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone, translation

from pwscup.competitions.models import AuditEntry
from pwscup.core.errors import Refused
from pwscup.core.files import opened
from pwscup.presentations import selectors, services
from pwscup.presentations.messages import slides_message_text
from pwscup.presentations.models import PresentationWindow, Slides
from pwscup.submissions.selectors import team_uploads_held, upload_models
from pwscup.submissions.services.maintenance import job_kinds, jobs_reap
from tests.pwscup.pdfs import PNG_BYTES, broken_pdf, minimal_pdf
from tests.pwscup.presentations_support import (
    HOUR,
    close,
    png_size,
    publish_results,
    rendered,
    upload,
    window_for,
)

pytestmark = pytest.mark.django_db


def test_a_png_named_slides_pdf_is_kept_and_rejected_with_a_message(world):
    window = window_for(world)
    slides = upload(world, window, content=PNG_BYTES, name="slides.pdf")
    assert slides.status == Slides.Status.QUEUED and slides.size == len(PNG_BYTES)
    with opened(slides.file) as handle:
        assert handle.read() == PNG_BYTES  # kept exactly as uploaded
    slides = rendered(slides)
    assert slides.status == Slides.Status.FAILED
    assert slides.message_code == "slides.not_pdf"
    assert not slides.preview
    assert "slides.pdf is not a PDF" in slides_message_text(slides)
    with translation.override("ja"):
        assert "slides.pdf" in slides_message_text(slides)
        assert "PDF" in slides_message_text(slides)
        assert "is not a PDF" not in slides_message_text(slides)


def test_a_real_pdf_named_slides_txt_is_accepted_and_previewed_800_pixels_wide(world):
    window = window_for(world)
    slides = rendered(upload(world, window, name="slides.txt"))
    assert slides.status == Slides.Status.FINISHED, slides.message
    assert slides.original_filename == "slides.txt"
    with opened(slides.preview) as handle:
        png = handle.read()
    width, height = png_size(png)
    assert width == 800 and height == 450  # the page is 800 × 450 points


def test_the_header_is_looked_for_in_the_first_1024_bytes_only(world):
    window = window_for(world)
    near = rendered(upload(world, window, content=minimal_pdf(junk_before=b"x" * 1000)))
    assert near.status == Slides.Status.FINISHED, near.message
    far = rendered(upload(world, window, content=b"x" * 1100 + minimal_pdf()))
    assert far.status == Slides.Status.FAILED and far.message_code == "slides.not_pdf"


def test_a_pdf_poppler_cannot_read_fails_with_its_reason(world):
    window = window_for(world)
    slides = rendered(upload(world, window, content=broken_pdf(), name="deck.pdf"))
    assert slides.status == Slides.Status.FAILED
    assert slides.message_code == "slides.unreadable"
    text = slides_message_text(slides)
    assert "deck.pdf could not be read as a PDF" in text
    assert slides.message_params["reason"]  # poppler's own words


def test_a_file_over_the_windows_cap_is_refused_413_naming_both_sizes(world):
    window = window_for(world, max_bytes=500)
    content = minimal_pdf()
    assert len(content) > 500
    with pytest.raises(Refused) as refused:
        upload(world, window, content=content)
    assert refused.value.status == 413
    assert str(len(content)) in refused.value.message and "500" in refused.value.message
    assert not Slides.objects.exists()


def test_uploads_outside_the_window_are_refused_403(world):
    now = timezone.now()
    later = window_for(world, opens_at=now + HOUR, closes_at=now + 2 * HOUR)
    with pytest.raises(Refused) as refused:
        upload(world, later)
    assert refused.value.status == 403
    assert "is not open yet: it opens at" in refused.value.message
    assert "(Asia/Tokyo)" in refused.value.message
    close(later)
    with pytest.raises(Refused) as refused:
        upload(world, later)
    assert refused.value.status == 403 and " closed at " in refused.value.message
    assert not Slides.objects.exists()


def test_the_total_limit_refuses_429_and_rejected_files_do_not_count(world):
    window = window_for(world, total_limit=1)
    rendered(upload(world, window, content=PNG_BYTES))  # FAILED: free
    upload(world, window)
    with pytest.raises(Refused) as refused:
        upload(world, window)
    assert refused.value.status == 429
    assert "all 1 uploads of slides" in refused.value.message
    upload(world, window, letter="b")  # another team has its own quota


def test_the_daily_limit_uses_the_windows_time_zone(world):
    window = window_for(world, round=None, daily_limit=1, time_zone="America/New_York")
    upload(world, window)
    with pytest.raises(Refused) as refused:
        upload(world, window)
    assert refused.value.status == 429 and "(America/New_York)" in refused.value.message


def test_slides_count_against_the_teams_stored_bytes_and_are_reaped(world, settings):
    assert Slides in upload_models()
    assert Slides in [job.model for job in job_kinds()]
    window = window_for(world)
    first = upload(world, window)
    held = team_uploads_held(team=world.teams["a"], since=first.created_at)
    assert held.stored_bytes == first.size
    settings.PWSCUP_MAX_STORED_BYTES_PER_TEAM = first.size + 10
    with pytest.raises(Refused) as refused:
        upload(world, window)
    assert refused.value.status == 413 and "per team" in refused.value.message
    # A run lost with its worker goes back to the queue, like every kind's job.
    stale = timezone.now() - dt.timedelta(days=1)
    Slides.objects.filter(pk=first.pk).update(status="running", started_at=stale, attempts=1)
    assert jobs_reap()["requeued"] == 1
    first.refresh_from_db()
    assert first.status == Slides.Status.QUEUED


def test_window_rules(world, settings):
    now = timezone.now()
    with pytest.raises(ValidationError) as error:
        window_for(world, opens_at=now, closes_at=now - HOUR)
    assert "closes_at" in error.value.message_dict
    with pytest.raises(ValidationError) as error:
        window_for(world, max_bytes=settings.PWSCUP_SLIDES_MAX_BYTES + 1)
    assert "max_bytes" in error.value.message_dict
    window = window_for(world)
    assert window.max_bytes == settings.PWSCUP_SLIDES_MAX_BYTES and window.zone == "Asia/Tokyo"
    with pytest.raises(ValidationError) as error:
        window_for(world)
    assert "has a presentation window already: edit it on the Presentations page, or" in str(
        error.value
    )
    window_for(world, round=None, title="Final session")
    with pytest.raises(ValidationError) as error:
        window_for(world, round=None)
    assert "competition-wide" in str(error.value)
    assert AuditEntry.objects.filter(action=AuditEntry.Action.PRESENTATIONS_SCHEDULED).count() == 2


def test_publication_waits_for_the_close_and_the_results(world):
    window = window_for(world)
    with pytest.raises(Refused) as refused:
        services.presentations_publish(window=window, user=world.organizer)
    message = refused.value.message
    assert "has not closed yet" in message and "results of Round are not published" in message
    close(window)
    with pytest.raises(Refused) as refused:
        services.presentations_publish(window=window, user=world.organizer)
    assert "has not closed" not in refused.value.message
    publish_results(world.round)
    services.presentations_publish(window=window, user=world.organizer)
    window.refresh_from_db()
    assert window.is_published and window.published_by == world.organizer
    with pytest.raises(Refused):  # no upload once published, even if reopened
        PresentationWindow.objects.filter(pk=window.pk).update(closes_at=timezone.now() + HOUR)
        upload(world, window)
    services.presentations_hide(window=window, user=world.organizer)
    window.refresh_from_db()
    assert not window.is_published
    actions = list(
        AuditEntry.objects.filter(competition=world.competition).values_list("action", flat=True)
    )
    assert AuditEntry.Action.PRESENTATIONS_PUBLISHED in actions
    assert AuditEntry.Action.PRESENTATIONS_HIDDEN in actions


def test_a_competition_wide_window_waits_for_every_round(world):
    window = close(window_for(world, round=None))
    assert selectors.publication_missing(window=window) == [
        "The results of Round are not published yet."
    ]
    publish_results(world.round)
    assert selectors.publication_missing(window=window) == []


def test_published_slides_hold_each_teams_latest_ready_upload(world):
    window = window_for(world, title="Policies")
    a_old = rendered(upload(world, window, "a", anonymization_policy="k=5"))
    a_new = rendered(upload(world, window, "a", attack_policy="nearest neighbour"))
    rendered(upload(world, window, "a", content=PNG_BYTES))  # latest, but rejected
    b = rendered(upload(world, window, "b"))
    upload(world, window, "c")  # not rendered yet: not shown
    assert selectors.published_slides(competition=world.competition) == []
    close(window)
    publish_results(world.round)
    services.presentations_publish(window=window, user=world.organizer)
    shown = selectors.published_slides(competition=world.competition)
    assert [(s.team_name, s.slides.pk) for s in shown] == [("Team A", a_new.pk), ("Team B", b.pk)]
    assert a_old.pk not in [s.slides.pk for s in shown]
    first = shown[0]
    assert first.window_title == "Policies" and first.round == world.round
    assert first.team_slug == "teamA" and first.slides.attack_policy == "nearest neighbour"
    assert first.slides.preview and first.slides.sha256 and first.slides.size > 0


def test_windows_in_page_order_with_the_competition_wide_one_last(world):
    whole = window_for(world, round=None)
    of_round = window_for(world)
    assert selectors.competition_windows(competition=world.competition) == [of_round, whole]


def test_a_policy_text_has_a_bounded_length(world):
    window = window_for(world)
    with pytest.raises(Refused) as refused:
        upload(world, window, anonymization_policy="x" * 4001)
    assert "at most 4000 characters" in refused.value.message
