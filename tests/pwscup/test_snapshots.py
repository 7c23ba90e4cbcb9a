"""Snapshots (pwscup/core/snapshots.py): a page answered before Django is the page Django
would send now, to this viewer only, and any change anywhere on it sends the next request
back to Django.

Transactional tests: a snapshot knows rows by the transaction that wrote them (``xmin``),
so every change here commits, as it does in production.
"""

import datetime as dt
import io
import re
import sys

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.db import connection
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.models import Membership, Team
from pwscup.competitions.models import Competition, Phase, Round
from pwscup.competitions.ranking_cache import ranking_invalidate
from pwscup.core import snapshots
from pwscup.notifications.models import Notification
from pwscup.submissions.models import AnonymizationSubmission
from tests.pwscup.factories import scored, upload
from tests.support import noisy_copy

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def world(settings, make_world):
    settings.PWSCUP_SNAPSHOTS = True
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    return world


def _urls(world) -> dict:
    args = [world.competition.slug, world.round.slug]
    page = reverse("round_detail", args=args)
    return {
        "page": page,
        "fragment": page + "?fragment=1",
        "leaderboard": reverse("leaderboard", args=args),
    }


def _browser(user=None) -> Client:
    """A browser after its first page: it holds a CSRF cookie (and a session if logged in)."""
    client = Client()
    if user is not None:
        client.force_login(user)
    client.get(reverse("home"))
    assert client.cookies["csrftoken"].value
    return client


def _environ(client: Client, url: str, **extra) -> dict:
    path, _, query = url.partition("?")
    return {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "HTTP_HOST": "testserver",
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "wsgi.url_scheme": "http",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": sys.stderr,
        "HTTP_COOKIE": "; ".join(f"{k}={m.value}" for k, m in client.cookies.items()),
        **extra,
    }


def _fast(client: Client, url: str, **extra):
    """The snapshot's answer to the browser's request, or None (Django answers)."""
    return snapshots.answer(_environ(client, url, **extra))


def _snapshot_key(client: Client, url: str) -> str:
    path, _, query = url.partition("?")
    cookies = {k: m.value for k, m in client.cookies.items()}
    return snapshots._key("testserver", "http", path, query, cookies, "")


def _recorded(client: Client, url: str, **headers):
    """Django answers (and records); then the snapshot answers the same request."""
    response = client.get(url, **headers)
    assert response.status_code == 200
    found = _fast(client, url)
    assert found is not None, "no snapshot answered"
    return response, found


def _tokens_as(html: str, secret: str) -> str:
    """``html`` with every CSRF token that is a masking of ``secret`` written TOKEN."""

    def swap(match):
        return "TOKEN" if _unmask_cipher_token(match.group()) == secret else match.group()

    return re.sub(r"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])", swap, html)


@pytest.mark.parametrize(
    ("viewer", "page"),
    [
        ("member", "page"),
        ("member", "fragment"),
        ("member", "leaderboard"),
        ("visitor", "leaderboard"),
    ],
)
def test_the_snapshot_is_the_page_django_sends(world, page, viewer):
    client = _browser(world.users["a"] if viewer == "member" else None)
    url = _urls(world)[page]
    response, (status, headers, body) = _recorded(client, url)
    secret = client.cookies["csrftoken"].value
    assert status == "200 OK"
    django_html = _tokens_as(response.content.decode(), secret)
    snapshot_html = _tokens_as(body.decode(), secret)
    assert snapshot_html == django_html
    if "<form" in django_html and 'method="post"' in django_html:
        assert "TOKEN" in snapshot_html  # the forms carry this browser's own token
    names = {k.lower(): v for k, v in headers}
    for name, value in response.items():
        if name.lower() not in ("set-cookie", "content-length"):
            assert names[name.lower()] == value, name
    assert names["content-length"] == str(len(body))
    cookies = [v for k, v in headers if k == "Set-Cookie"]

    def without_date(cookie):
        return re.sub(r"expires=[^;]+; ", "", cookie)

    django_cookie = response.cookies["csrftoken"].OutputString()
    assert [without_date(c) for c in cookies] == [without_date(django_cookie)]
    assert cookies[0].startswith(f"csrftoken={secret};") and "Max-Age=" in cookies[0]


def test_a_masked_token_is_a_fresh_masking_of_the_secret():
    secret = "aPWqd2ZLQ7mPNcscw2SL0VH1zpEdjN12"
    tokens = {snapshots._masked_token(secret) for _ in range(50)}
    assert len(tokens) == 50
    for token in tokens:
        assert len(token) == 64 and token.isalnum()
        assert _unmask_cipher_token(token) == secret


def test_a_fragment_answered_304_by_the_snapshot(world):
    client = _browser(world.users["a"])
    url = _urls(world)["fragment"]
    etag = client.get(url)["ETag"]
    status, headers, body = _fast(client, url, HTTP_IF_NONE_MATCH=etag)
    assert status.startswith("304") and body == b""
    assert ("ETag", etag) in headers
    assert not any(k.lower() == "content-type" for k, _ in headers)
    assert _fast(client, url, HTTP_IF_NONE_MATCH='"other"')[0] == "200 OK"


def test_a_304_answered_by_django_is_kept_as_one(world):
    client = _browser(world.users["a"])
    url = _urls(world)["fragment"]
    etag = client.get(url)["ETag"]
    snapshots.cache.clear()
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert _fast(client, url, HTTP_IF_NONE_MATCH=etag)[0].startswith("304")
    assert _fast(client, url) is None  # no body known: Django renders it


def test_a_304_answered_by_django_replaces_a_stale_full_snapshot(world):
    client = _browser(world.users["a"])
    url = _urls(world)["fragment"]
    etag = client.get(url)["ETag"]
    # the page's state changes (the bell's count), not the fragment's ETag
    Notification.objects.create(user=world.users["a"], kind="submission_finished", event="x")
    assert _fast(client, url, HTTP_IF_NONE_MATCH=etag) is None
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert _fast(client, url, HTTP_IF_NONE_MATCH=etag)[0].startswith("304")


def test_each_browser_of_the_same_account_gets_its_own_token(world):
    first, second = _browser(world.users["a"]), _browser(world.users["a"])
    url = _urls(world)["page"]
    _recorded(first, url)  # after both logins (a login writes the account's last_login)
    assert _fast(second, url) is None  # a snapshot belongs to one browser's session
    _recorded(second, url)
    secrets = {c: c.cookies["csrftoken"].value for c in (first, second)}
    assert secrets[first] != secrets[second]
    for client, secret in secrets.items():
        html = _fast(client, url)[2].decode()
        other = next(s for c, s in secrets.items() if c is not client)
        assert "TOKEN" in _tokens_as(html, secret)
        assert "TOKEN" not in _tokens_as(html, other)


def test_a_form_of_a_snapshot_posts_with_the_browsers_own_token(world):
    first, second = _browser(world.users["a"]), _browser(world.users["a"])
    url = _urls(world)["page"]
    _recorded(first, url)
    _recorded(second, url)
    _status, _headers, body = _fast(second, url)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', body.decode()).group(1)
    second.handler.enforce_csrf_checks = True
    upload_url = reverse("anonymization_upload", args=[world.competition.slug, world.round.slug])
    content = io.BytesIO(noisy_copy(world.original, seed=9))
    content.name = "anonymized.csv"
    refused = second.post(upload_url, {"file": content, "csrfmiddlewaretoken": "x" * 64})
    assert refused.status_code == 403  # the check is on
    content.seek(0)
    accepted = second.post(upload_url, {"file": content, "csrfmiddlewaretoken": token})
    assert accepted.status_code == 302
    assert AnonymizationSubmission.objects.filter(team=world.teams["a"]).count() == 2


def test_nobody_gets_a_page_recorded_for_someone_else(world):
    urls = _urls(world)
    member_a = _browser(world.users["a"])
    for url in urls.values():
        _recorded(member_a, url)
    member_b, visitor = _browser(world.users["b"]), _browser()
    for url in urls.values():
        assert _fast(member_b, url) is None
        assert _fast(visitor, url) is None
        # even a's snapshot found under b's key: it names a's account, not b's session's
        a_key, b_key = (_snapshot_key(client, url) for client in (member_a, member_b))
        assert snapshots.cache.get(a_key) is not None
        snapshots.cache.set(b_key, snapshots.cache.get(a_key))
        assert _fast(member_b, url) is None
        snapshots.cache.delete(b_key)
    # b's own snapshot of its round page shows b's team, not a's uploads
    _response, (_s, _h, body) = _recorded(member_b, urls["page"])
    assert world.teams["b"].name in body.decode()
    own_a = AnonymizationSubmission.objects.filter(team=world.teams["a"]).values_list("pk", flat=1)
    assert all(f"#{pk}<" not in body.decode() for pk in own_a)


def test_organizers_pages_are_never_snapshot(world):
    organizer = _browser(world.organizer)
    for url in _urls(world).values():
        assert organizer.get(url).status_code == 200
        assert _fast(organizer, url) is None


def test_a_session_that_ended_or_holds_messages_goes_to_django(world):
    from django.contrib.messages import constants
    from django.contrib.messages.storage.session import SessionStorage

    client = _browser(world.users["a"])
    url = _urls(world)["page"]
    _recorded(client, url)
    kept = client.cookies["sessionid"].value
    session = client.session
    storage = SessionStorage(type("Request", (), {"session": session})())
    storage.add(constants.INFO, "hello")
    storage.update(None)  # what the message middleware does at the end of a request
    session.save()
    assert "_messages" in client.session
    assert _fast(client, url) is None  # a flash message waits: Django shows it
    session = client.session
    del session["_messages"]
    session.save()
    assert _fast(client, url) is not None
    client.logout()
    client.cookies["sessionid"] = kept  # the old cookie of a logged-out session
    assert _fast(client, url) is None


def _grant(world, codename):
    world.users["a"].user_permissions.add(Permission.objects.get(codename=codename))


def _join_group(world):
    group = Group.objects.create(name="helpers")
    group.permissions.add(Permission.objects.get(codename="add_competition"))
    world.users["a"].groups.add(group)


CHANGES = {
    "a new upload": lambda w: upload(w, "a", noisy_copy(w.original, seed=5)),
    "a job's state, written in bulk": lambda w: AnonymizationSubmission.objects.filter(
        team=w.teams["a"]
    ).update(status="FAILED"),
    "the team renamed in bulk": lambda w: Team.objects.filter(pk=w.teams["a"].pk).update(
        name="Renamed"
    ),
    "a phase's deadline moved": lambda w: Phase.objects.filter(pk=w.anonymization.pk).update(
        closes_at=timezone.now() + dt.timedelta(hours=5)
    ),
    "the round edited": lambda w: Round.objects.filter(pk=w.round.pk).update(name="Renamed"),
    "the competition edited": lambda w: Competition.objects.filter(pk=w.competition.pk).update(
        name="Renamed", is_listed=False
    ),
    "the member left the team": lambda w: Membership.objects.filter(user=w.users["a"]).delete(),
    "the account deactivated": lambda w: (
        get_user_model().objects.filter(pk=w.users["a"].pk).update(is_active=False)
    ),
    "the password changed": lambda w: (
        w.users["a"].set_password("new-password"),
        w.users["a"].save(),
    ),
    "a notification": lambda w: Notification.objects.create(
        user=w.users["a"], kind="submission_finished", event="x", params={}
    ),
    "made an organizer": lambda w: w.competition.organizers.add(w.users["a"]),
    "a permission granted": lambda w: _grant(w, "add_competition"),
    "a group joined": _join_group,
}


@pytest.mark.parametrize("change", CHANGES, ids=list(CHANGES))
@pytest.mark.parametrize("page", ["page", "fragment", "leaderboard"])
def test_every_change_on_the_page_sends_the_next_request_to_django(world, change, page):
    client = _browser(world.users["a"])
    url = _urls(world)[page]
    _recorded(client, url)
    assert _fast(client, url) is not None  # unchanged: answered again
    CHANGES[change](world)
    assert _fast(client, url) is None


def test_a_ranking_change_sends_the_rankings_to_django_not_the_round_page(world):
    client = _browser(world.users["a"])
    urls = _urls(world)
    for url in urls.values():
        _recorded(client, url)
    ranking_invalidate(round_ids=[world.round.pk])
    assert _fast(client, urls["leaderboard"]) is None
    assert _fast(client, urls["page"]) is not None  # it shows no ranking
    assert _fast(client, urls["fragment"]) is not None


def test_a_visitors_ranking_follows_the_ranking_and_the_round(world):
    visitor = _browser()
    url = _urls(world)["leaderboard"]
    _recorded(visitor, url)
    scored(world, "c", seed=3)  # a new score: a new ranking version
    assert _fast(visitor, url) is None
    _response, (_s, _h, body) = _recorded(visitor, url)
    assert world.teams["c"].name in body.decode()
    Phase.objects.filter(pk=world.anonymization.pk).update(leaderboard_public=False)
    assert _fast(visitor, url) is None
    assert visitor.get(url).status_code == 404  # Django's answer now


def test_a_snapshot_ends_at_the_next_phase_boundary_and_local_midnight(world, monkeypatch):
    soon = timezone.now() + dt.timedelta(seconds=30)
    Phase.objects.filter(pk=world.anonymization.pk).update(closes_at=soon)
    client = _browser(world.users["a"])
    url = _urls(world)["page"]
    _recorded(client, url)
    real = snapshots.time.time
    monkeypatch.setattr(snapshots.time, "time", lambda: real() + 31)
    assert _fast(client, url) is None  # the phase closed meanwhile: Django renders it
    now = dt.datetime(2026, 11, 22, 23, 59, 30, tzinfo=dt.UTC)
    assert (
        snapshots._expiry(now, "UTC", [])
        == now.replace(hour=0, minute=0, second=0).timestamp() + 86400
    )
    tokyo = snapshots._expiry(now, "Asia/Tokyo", [])  # 08:59:30 in Tokyo: up to 2 minutes
    assert tokyo == (now + dt.timedelta(seconds=snapshots.max_seconds())).timestamp()


def test_the_key_holds_language_host_and_scheme(world, settings):
    client = _browser(world.users["a"])
    url = _urls(world)["page"]
    _recorded(client, url)
    assert _fast(client, url, HTTP_ACCEPT_LANGUAGE="ja") is None
    client.cookies["django_language"] = "ja"
    assert _fast(client, url) is None
    ja = client.get(url)
    assert _fast(client, url)[2].decode().count("提出") == ja.content.decode().count("提出") > 0
    assert _fast(client, url, HTTP_HOST="evil.example") is None  # not an allowed host
    settings.SECURE_SSL_REDIRECT = True
    assert _fast(client, url) is None  # Django would redirect to HTTPS


def test_the_wsgi_application_answers_from_the_snapshot_with_one_query(world):
    from pwscup.wsgi import application

    client = _browser(world.users["a"])
    url = _urls(world)["page"]
    expected = client.get(url).content.decode()

    def call(environ):
        started = []
        body = b"".join(application(environ, lambda s, h, e=None: started.append((s, h))))
        return started[0], body

    with CaptureQueriesContext(connection) as captured:
        (status, _headers), body = call(_environ(client, url))
    assert status == "200 OK"
    assert len(captured) == 1 and "xmin" in captured[0]["sql"]
    secret = client.cookies["csrftoken"].value
    assert _tokens_as(body.decode(), secret) == _tokens_as(expected, secret)
    # a page no snapshot holds: Django's whole request cycle
    with CaptureQueriesContext(connection) as captured:
        (status, _headers), body = call(_environ(client, reverse("home")))
    assert status == "200 OK" and len(captured) > 1


def test_a_failing_snapshot_leaves_the_answer_to_django(world, monkeypatch):
    from pwscup.wsgi import application

    client = _browser(world.users["a"])
    url = _urls(world)["page"]
    client.get(url)

    def broken(**_kwargs):
        raise RuntimeError("database went away")

    monkeypatch.setattr(snapshots, "round_state", broken)
    started = []
    body = b"".join(application(_environ(client, url), lambda s, h, e=None: started.append(s)))
    assert started == ["200 OK"] and world.teams["a"].name.encode() in body


def test_nothing_is_recorded_when_snapshots_are_off(world, settings):
    settings.PWSCUP_SNAPSHOTS = False
    client = _browser(world.users["a"])
    url = _urls(world)["page"]
    client.get(url)
    settings.PWSCUP_SNAPSHOTS = True
    assert _fast(client, url) is None


@pytest.fixture
def healthz_headers():
    snapshots._healthz_headers.clear()  # kept per process: each test starts without them
    yield
    snapshots._healthz_headers.clear()


def test_healthz_is_answered_before_django_once_django_has_answered_it(settings, healthz_headers):
    settings.PWSCUP_SNAPSHOTS = True
    client = Client()
    assert _fast(client, "/healthz") is None  # no answer of Django's to take headers from
    response = client.get("/healthz")
    status, headers, body = _fast(client, "/healthz")
    assert status.split()[0] == str(response.status_code)
    assert body == response.content
    named = dict(headers)
    for name, value in response.items():
        if name.lower() not in ("expires", "content-length"):
            assert named[name] == value, name
    assert named["Expires"] and named["Content-Length"] == str(len(body))
    assert "no-store" in named["Cache-Control"]
    assert _fast(client, "/healthz", HTTP_HOST="evil.example") is None


def test_healthz_before_django_follows_the_health_it_reports(
    settings, healthz_headers, monkeypatch
):
    from pwscup.core import selectors

    settings.PWSCUP_SNAPSHOTS = True
    client = Client()
    client.get("/healthz")
    monkeypatch.setattr(selectors, "broker_and_workers", lambda: ("ok", 2))
    status, _headers, body = _fast(client, "/healthz")
    assert status == "200 OK" and b'"workers": 2' in body
    monkeypatch.setattr(selectors, "broker_and_workers", lambda: ("ok", 0))
    status, _headers, body = _fast(client, "/healthz")
    assert status == "503 Service Unavailable" and b'"status": "degraded"' in body
