"""The presentations' pages: the upload form's answers (403, 413, 429 with their messages),
who may fetch which slides before and after publication, the console's window form and its
publication behind a confirmation."""

import pytest
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import organizer_grant, user_create
from pwscup.competitions.models import Competition
from pwscup.core.files import opened
from pwscup.presentations import services
from pwscup.presentations.models import PresentationWindow, Slides
from tests.pwscup.pdfs import PNG_BYTES, minimal_pdf
from tests.pwscup.presentations_support import (
    HOUR,
    close,
    pdf_file,
    png_size,
    publish_results,
    rendered,
    upload,
    window_for,
)

pytestmark = pytest.mark.django_db


def page_url(world):
    return reverse("presentations:page", args=[world.competition.slug])


def upload_url(world, window):
    return reverse("presentations:upload", args=[world.competition.slug, window.pk])


def file_urls(world, slides):
    args = [world.competition.slug, slides.pk]
    return (
        reverse("presentations:slides_pdf", args=args),
        reverse("presentations:slides_preview", args=args),
    )


def post_slides(client, world, window, content=None, name="slides.pdf", **data):
    return client.post(upload_url(world, window), {"file": pdf_file(content, name), **data})


def test_a_team_uploads_its_slides_from_the_page(client, world):
    window = window_for(world, total_limit=3)
    client.force_login(world.users["a"])
    page = client.get(page_url(world))
    assert page.status_code == 200
    assert f'data-testid="slides-form-{window.pk}"'.encode() in page.content
    assert b"Uploads used: 0 of 3." in page.content
    answer = post_slides(
        client, world, window, anonymization_policy="k-anonymity, k=5", attack_policy="linkage"
    )
    assert answer.status_code == 302 and answer["Location"].endswith("#uploads")
    slides = Slides.objects.get()
    assert (slides.team, slides.uploaded_by, slides.number) == (
        world.teams["a"],
        world.users["a"],
        1,
    )
    assert slides.anonymization_policy == "k-anonymity, k=5" and slides.attack_policy == "linkage"
    fragment = client.get(page_url(world) + "?fragment=1")
    assert b'data-pending="1"' in fragment.content and b"slides.pdf" in fragment.content
    rendered(slides)
    fragment = client.get(page_url(world) + "?fragment=1")
    assert b'data-pending="0"' in fragment.content and b"Ready" in fragment.content


def test_the_form_answers_refusals_with_their_status_and_message(client, world):
    window = window_for(world, max_bytes=300, total_limit=1)
    client.force_login(world.users["a"])
    big = minimal_pdf()
    answer = post_slides(client, world, window, content=big)
    assert answer.status_code == 413
    assert f"The file is {len(big)} bytes".encode() in answer.content
    assert b"at most 300 bytes" in answer.content
    PresentationWindow.objects.filter(pk=window.pk).update(max_bytes=10_000)
    assert post_slides(client, world, window).status_code == 302
    answer = post_slides(client, world, window)
    assert answer.status_code == 429 and b"all 1 uploads of slides" in answer.content
    close(window)
    answer = post_slides(client, world, window)
    assert answer.status_code == 403 and b" closed at " in answer.content
    json_answer = client.post(
        upload_url(world, window), {"file": pdf_file()}, headers={"accept": "application/json"}
    )
    assert json_answer.status_code == 403 and " closed at " in json_answer.json()["error"]
    assert Slides.objects.count() == 1


def test_a_rejected_file_shows_why_on_the_page(client, world):
    window = window_for(world)
    client.force_login(world.users["a"])
    post_slides(client, world, window, content=PNG_BYTES, name="slides.pdf")
    rendered(Slides.objects.get())
    page = client.get(page_url(world))
    assert b"Rejected" in page.content and b"slides.pdf is not a PDF" in page.content


def test_who_fetches_which_slides_before_and_after_publication(client, world):
    window = window_for(world)
    old = rendered(upload(world, window, "a"))
    shown = rendered(upload(world, window, "a"))
    pdf, preview = file_urls(world, shown)
    old_pdf, _old_preview = file_urls(world, old)
    outsider = user_create(username="outsider", password="pw")

    def status(user, url):
        client.logout()
        if user is not None:
            client.force_login(user)
        return client.get(url).status_code

    # Before publication: the team and the organizers only.
    assert status(world.users["a"], pdf) == 200
    assert status(world.organizer, preview) == 200
    for user in (world.users["b"], outsider, None):
        assert status(user, pdf) == 404 and status(user, preview) == 404
    assert status(world.users["b"], page_url(world)) == 200
    assert status(outsider, page_url(world)) == 404
    close(window)
    publish_results(world.round)
    services.presentations_publish(window=window, user=world.organizer)
    # After: every participant sees each team's shown slides (not its older uploads).
    client.force_login(world.users["b"])
    answer = client.get(pdf)
    assert answer.status_code == 200 and answer["Content-Type"] == "application/pdf"
    assert "attachment" in answer["Content-Disposition"]
    assert b"".join(answer.streaming_content) == minimal_pdf()
    image = client.get(preview)
    assert image.status_code == 200 and image["Content-Type"] == "image/png"
    assert png_size(b"".join(image.streaming_content))[0] == 800
    assert status(world.users["b"], old_pdf) == 404
    page = client.get(page_url(world))
    assert b'data-testid="gallery-teamA"' in page.content and preview.encode() in page.content
    # Never visitors nor other accounts, listed competition or not.
    for user in (outsider, None):
        assert status(user, pdf) == 404 and status(user, preview) == 404
    Competition.objects.filter(pk=world.competition.pk).update(is_listed=False)
    assert status(None, pdf) == 404 and status(None, preview) == 404
    assert status(world.users["c"], pdf) == 200


def test_slides_of_another_competition_are_not_found_under_this_one(client, world, make_world):
    window = window_for(world)
    slides = rendered(upload(world, window, "a"))
    other = make_world(slug="other")
    client.force_login(other.organizer)
    url = reverse("presentations:slides_pdf", args=[other.competition.slug, slides.pk])
    assert client.get(url).status_code == 404


def test_the_competition_and_console_pages_show_their_cards(client, world):
    client.force_login(world.users["a"])
    detail = reverse("competition_detail", args=[world.competition.slug])
    assert b"presentations-card" not in client.get(detail).content  # no window yet
    window_for(world, title="Policy talks")
    page = client.get(detail)
    assert b"presentations-card" in page.content and b"Policy talks" in page.content
    client.force_login(world.organizer)
    console = client.get(reverse("console:competition", args=[world.competition.slug]))
    assert b"console-presentations" in console.content and b"0 / 3" in console.content


def test_the_console_links_the_participants_page_once_it_exists(client, world):
    """Before the first window the participants' page answers 404: no link to it."""
    client.force_login(world.organizer)
    slug = world.competition.slug
    participants = reverse("presentations:page", args=[slug])
    console = client.get(reverse("presentations:console", args=[slug])).content.decode()
    assert client.get(participants).status_code == 404
    assert f'href="{participants}"' not in console
    window_for(world)
    console = client.get(reverse("presentations:console", args=[slug])).content.decode()
    assert f'href="{participants}"' in console
    assert client.get(participants).status_code == 200


def test_the_console_schedules_and_publishes_behind_a_confirmation(client, world):
    staff = user_create(username="staff-organizer", password="pw", is_staff=True)
    organizer_grant(user=staff, competition=world.competition)
    slug = world.competition.slug
    new_url = reverse("presentations:window_new", args=[slug])
    client.force_login(world.users["a"])
    assert client.get(new_url).status_code == 404
    assert client.get(reverse("presentations:console", args=[slug])).status_code == 404
    client.force_login(staff)
    assert client.get(new_url).status_code == 200
    bad = client.post(
        new_url,
        {
            "round": world.round.pk,
            "opens_at": "2030-01-02T10:00",
            "closes_at": "2030-01-01T10:00",
            "time_zone": "Asia/Tokyo",
            "max_megabytes": "1",
        },
    )
    assert bad.status_code == 200 and b"must close after it opens" in bad.content
    now = timezone.localtime(timezone.now())
    created = client.post(
        new_url,
        {
            "round": world.round.pk,
            "title": "Talks",
            "opens_at": (now - 2 * HOUR).strftime("%Y-%m-%dT%H:%M"),
            "closes_at": (now + HOUR).strftime("%Y-%m-%dT%H:%M"),
            "time_zone": "Asia/Tokyo",
            "max_megabytes": "0.5",
        },
    )
    assert created.status_code == 302
    window = PresentationWindow.objects.get()
    assert (window.title, window.max_bytes, window.round) == ("Talks", 524_288, world.round)
    rendered(upload(world, window, "b"))
    publish_url = reverse("presentations:window_publish", args=[slug, window.pk])
    confirm = client.get(publish_url)
    assert (
        b"has not closed yet" in confirm.content and b'data-testid="confirm"' not in confirm.content
    )
    refused = client.post(publish_url)
    assert refused.status_code == 409 and b"cannot be published yet" in refused.content
    close(window)
    publish_results(world.round)
    confirm = client.get(publish_url)
    assert (
        b'data-testid="confirm"' in confirm.content
        and b"Teams with ready slides: 1." in confirm.content
    )
    assert client.post(publish_url).status_code == 302
    window.refresh_from_db()
    assert window.published_by == staff
    console = client.get(reverse("presentations:console", args=[slug]))
    assert b"window-published" in console.content
    edit = client.post(
        reverse("presentations:window_edit", args=[slug, window.pk]),
        {
            "opens_at": "2030-01-01T10:00",
            "closes_at": "2030-01-02T10:00",
            "time_zone": "Asia/Tokyo",
            "max_megabytes": "1",
        },
    )
    assert b"hide them before changing it" in edit.content
    hide_url = reverse("presentations:window_hide", args=[slug, window.pk])
    assert client.post(hide_url).status_code == 302
    window.refresh_from_db()
    assert not window.is_published


def test_an_s3_bucket_keeps_the_slides_and_their_preview(client, world, s3_server, s3_bucket):
    window = window_for(world)
    slides = rendered(upload(world, window, "a"))
    assert slides.status == Slides.Status.FINISHED, slides.message
    stored = s3_server.objects(s3_bucket)
    assert stored[slides.file.name] == minimal_pdf()
    assert stored[slides.preview.name].startswith(b"\x89PNG")
    with opened(slides.preview) as handle:
        assert png_size(handle.read())[0] == 800
    client.force_login(world.users["a"])
    pdf, _preview = file_urls(world, slides)
    assert b"".join(client.get(pdf).streaming_content) == minimal_pdf()


def test_the_page_follows_the_teams_slides_through_the_live_status(client, world):
    """The presentations page polls its team's jobs of no round like every live page: 304
    from one query while the preview waits, 200 once the worker has rendered it."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.pwscup.live_support import live_box, poll

    window = window_for(world, total_limit=3)
    client.force_login(world.users["a"])
    post_slides(client, world, window)
    page = client.get(page_url(world)).content.decode()
    url, etag = live_box(page)
    assert url == reverse("live_competition_team", args=[world.competition.slug])
    with CaptureQueriesContext(connection) as queries:
        unchanged = poll(client, url, etag)
    assert unchanged.status_code == 304 and len(queries) == 3, queries.captured_queries
    rendered(Slides.objects.get())  # the worker: claim, render, complete
    assert poll(client, url, etag).status_code == 200
    # Another team's member, the organizer (no team) and a visitor have no such scope.
    client.force_login(world.users["b"])
    assert poll(client, url, etag).status_code == 200  # its own team's, not A's
    client.force_login(world.organizer)
    assert poll(client, url, etag).status_code == 404
    client.logout()
    assert poll(client, url, etag).status_code == 404


def test_the_window_form_shows_every_error_at_once(client, world, settings):
    """The cap, the dates' order and a competition-wide window already scheduled, on one
    post (the cap's error used to hide the other two); the opening written as the pages
    write a moment, not in ISO."""
    window_for(world, round=None)
    organizer_grant(user=world.organizer, competition=world.competition)
    client.force_login(world.organizer)
    settings.PWSCUP_SLIDES_MAX_BYTES = 10 * 1024 * 1024
    answer = client.post(
        reverse("presentations:window_new", args=[world.competition.slug]),
        {
            "round": "",
            "opens_at": "2030-01-02T10:00",
            "closes_at": "2030-01-01T10:00",
            "time_zone": "Asia/Tokyo",
            "max_megabytes": "20",
        },
    )
    page = answer.content.decode()
    assert answer.status_code == 200
    assert "between 1 byte and 10.0\xa0MB" in page and "20.0\xa0MB is not" in page
    assert "A presentation window must close after it opens" in page
    assert "(it opens at 2030-01-02 10:00 JST)" in page and "opens at 2030-01-02T" not in page
    assert (
        "has a competition-wide presentation window already: edit it on the Presentations "
        "page, or choose a round." in page
    )
    assert PresentationWindow.objects.count() == 1
