"""Whole pages answered 304 from versions (``pwscup.accounts.conditional``): a round's
overview and its leaderboards, for a team member, while nothing they show changed.

Each test asserts what a browser relies on: an unchanged page is an empty 304 with the
page's own ETag and ``Cache-Control`` (kept, asked about every time, never shared); any
change the page shows — the team's jobs, the ranking, the round's rows, a window opening or
closing, the language, the header, a log-in again, a waiting message — is a 200 with the
new page; and the forms of a kept page still post."""

import datetime as dt
from unittest import mock

import pytest
from django.conf import settings
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts import conditional
from pwscup.competitions.services import phase_set
from pwscup.kinds.tabs import RESULTS, SUBMIT, tab_url
from pwscup.notifications.services import notify
from pwscup.pwscup2015.services import round_results_set
from tests.pwscup.factories import freeze, scored, upload
from tests.pwscup.kept_support import directives, kept, member_browser
from tests.support import noisy_copy

pytestmark = pytest.mark.django_db


def _asked_again(client, url, page):
    return client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])


def _results_world(make_world):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    freeze(world)
    round_results_set(round=world.round, published=True)
    return world


def _pages(world) -> dict[str, str]:
    args = [world.competition.slug, world.round.slug]
    return {
        "overview": world.round_url(),
        "leaderboard": reverse("leaderboard", args=args),
        "matrix": reverse("matrix", args=args),
        "final": reverse("final_ranking", args=args),
    }


def test_an_unchanged_page_is_an_empty_304_with_the_pages_headers(make_world):
    world = _results_world(make_world)
    client = member_browser(world)
    for name, url in _pages(world).items():
        page = kept(client, url)
        again = _asked_again(client, url, page)
        assert again.status_code == 304, name
        assert again.content == b"", name
        assert again["ETag"] == page["ETag"], name
        assert directives(again) == directives(page), name


def test_a_304_costs_a_fixed_number_of_indexed_reads(world, django_assert_num_queries):
    """A kept page asked again is answered before its view runs
    (``pwscup.accounts.conditional.kept_answer``): the session, the user, then ONE read of
    the page generation, the header's unread count and the team's live version."""
    client = member_browser(world)
    page = kept(client, world.round_url())
    with django_assert_num_queries(3):
        assert _asked_again(client, world.round_url(), page).status_code == 304


def test_the_teams_new_upload_changes_its_overview(world):
    client = member_browser(world)
    page = kept(client, world.round_url())
    upload(world, "a", noisy_copy(world.original, seed=3))
    assert _asked_again(client, world.round_url(), page).status_code == 200


def test_a_new_score_changes_the_leaderboard_but_not_another_teams_overview(make_world):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    client = member_browser(world, "a")
    url = _pages(world)["leaderboard"]
    leaderboard, overview = kept(client, url), kept(client, world.round_url())
    scored(world, "b", seed=2)
    assert _asked_again(client, url, leaderboard).status_code == 200
    assert _asked_again(client, world.round_url(), overview).status_code == 304


def test_an_organizers_edit_of_the_round_or_its_window_changes_the_page(world):
    client = member_browser(world)
    page = kept(client, world.round_url())
    world.round.name = "Round one"
    world.round.save(update_fields=["name"])
    renamed = client.get(world.round_url(), HTTP_IF_NONE_MATCH=page["ETag"])
    assert renamed.status_code == 200 and "Round one" in renamed.content.decode()
    phase_set(
        round=world.round,
        kind=world.anonymization.kind,
        opens_at=world.anonymization.opens_at,
        closes_at=world.anonymization.closes_at + dt.timedelta(days=1),
    )
    assert _asked_again(client, world.round_url(), renamed).status_code == 200


def test_a_window_closing_changes_the_page_though_no_row_changed(world):
    client = member_browser(world)
    page = kept(client, world.round_url())
    later = timezone.now() + dt.timedelta(minutes=90)  # the anonymization phase has closed
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert _asked_again(client, world.round_url(), page).status_code == 200


def test_the_viewer_is_part_of_the_etag(world):
    """Another language, a new notification in the header, another team's member: each
    sees its own page."""
    client = member_browser(world)
    page = kept(client, world.round_url())
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = (
        "en" if page["Content-Language"] == "ja" else "ja"
    )
    other_language = client.get(world.round_url(), HTTP_IF_NONE_MATCH=page["ETag"])
    assert other_language.status_code == 200
    notify(users=[world.users["a"]], kind="test", event="test:1", params={})
    assert _asked_again(client, world.round_url(), other_language).status_code == 200
    other_team = member_browser(world, "b")
    assert _asked_again(other_team, world.round_url(), page).status_code == 200


def test_a_log_in_again_gets_a_page_whose_forms_match_its_new_csrf_secret(world):
    client = member_browser(world)
    page = kept(client, world.round_url())
    client.logout()
    client.force_login(world.users["a"])
    client.get(reverse("home"))
    assert _asked_again(client, world.round_url(), page).status_code == 200


def test_a_waiting_message_is_shown_not_answered_304(world):
    """A flash message is shown once, by the next page: that page is rendered."""
    client = member_browser(world)
    page = kept(client, world.round_url())
    client.post(
        reverse("team_create", args=[world.competition.slug]),
        {"name": "Another", "next": world.round_url()},
    )  # refused (already in a team): a message waits for the next page
    shown = client.get(world.round_url(), HTTP_IF_NONE_MATCH=page["ETag"])
    assert shown.status_code == 200
    assert 'data-testid="message"' in shown.content.decode()
    assert not shown.has_header("ETag")


def test_the_forms_of_a_page_kept_across_a_304_still_post(world):
    """The kept page's CSRF tokens were masked from the secret the browser still has."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(world.users["a"])
    client.get(reverse("home"))
    page = kept(client, world.round_url())
    assert _asked_again(client, world.round_url(), page).status_code == 304
    token = page.content.decode().split('name="csrfmiddlewaretoken" value="', 1)[1].split('"')[0]
    changed = client.post(
        reverse("set_language"),
        {"language": "en", "next": world.round_url(), "csrfmiddlewaretoken": token},
    )
    assert changed.status_code == 302


def test_an_organizers_pages_and_a_teams_own_records_are_neverkept(world):
    """What shows more than the shared parts is rendered every time and not stored."""
    organizer = Client()
    organizer.force_login(world.organizer)
    organizer.get(reverse("home"))
    scored(world, "a", seed=1)
    member = member_browser(world)
    for client, url in (
        (organizer, world.round_url()),
        (member, tab_url(world.round, SUBMIT)),
        (member, tab_url(world.round, RESULTS)),
    ):
        page = client.get(url)
        assert page.status_code == 200, url
        assert not page.has_header("ETag"), url
        assert {"private", "no-store"} <= directives(page), url


def test_a_first_visit_without_a_csrf_cookie_is_rendered_and_notkept(world):
    client = Client()
    client.force_login(world.users["a"])
    page = client.get(world.round_url())
    assert page.status_code == 200
    assert not page.has_header("ETag")
    assert "no-store" in directives(page)


@pytest.mark.parametrize("drawing", ["templates/page.html", "static/pwscup.js"])
def test_the_code_version_moves_with_a_file_that_draws_pages(tmp_path, settings, drawing):
    settings.BASE_DIR = tmp_path
    template = tmp_path / drawing
    template.parent.mkdir()
    template.write_text("one")
    before = conditional.code_version.__wrapped__()
    template.write_text("one, two")
    assert conditional.code_version.__wrapped__() != before


def test_a_rendered_page_reads_its_header_once(world):
    """The ETag and the page's header share one reading of the unread count."""
    client = member_browser(world)
    with CaptureQueriesContext(connection) as queries:
        assert client.get(world.round_url()).status_code == 200
    counts = [
        q["sql"] for q in queries.captured_queries if "notifications_notification" in q["sql"]
    ]
    assert len(counts) == 1, counts


def test_a_visitors_public_leaderboard_is_kept_privately_too(make_world):
    """Its language form's token is masked from the visitor's own CSRF secret: kept by the
    visitor's browser only (``private``), never by a shared cache."""
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    visitor = Client()
    visitor.get(reverse("home"))
    url = _pages(world)["leaderboard"]
    page = kept(visitor, url)
    assert _asked_again(visitor, url, page).status_code == 304
