"""Snapshots as the production pair serves them: gunicorn (scripts/docker/gunicorn.conf.py,
the WSGI application of pwscup/wsgi.py) behind nginx (scripts/docker/nginx.conf), on the
test database, with snapshots on.

A page asked twice is answered the second time from its snapshot (``X-Snapshot: hit``), the
same page; a change made meanwhile (an upload scored, a new score in the round) is on the
very next answer.
"""

import re
import urllib.error
import urllib.request

import pytest
from django.middleware.csrf import _unmask_cipher_token
from django.test import Client
from django.urls import reverse

from tests.pwscup.factories import scored
from tests.support import child_env, free_port, gunicorn_command, running

pytestmark = [pytest.mark.proxy, pytest.mark.django_db(transaction=True)]

SECRET = "S" * 16 + "n4p5h0t5ecret000"  # a well-formed CSRF cookie of the browser


@pytest.fixture
def gunicorn_port(tmp_path):
    """gunicorn with the production configuration file and snapshots on (no worker: the
    jobs are run in the test's process)."""
    port = free_port()
    env = child_env(
        GUNICORN_BIND=f"127.0.0.1:{port}",
        GUNICORN_WORKERS="1",
        GUNICORN_THREADS="2",
        PWSCUP_SNAPSHOTS="1",
    )

    def up():
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=5)
            return True
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            return False

    with running(
        gunicorn_command(),
        env=env,
        log_path=tmp_path / "gunicorn.log",
        ready=up,
        what="gunicorn to answer",
    ):
        yield port


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None  # the answer itself, not the page it points to


_OPENER = urllib.request.build_opener(_NoRedirect)


def _get(port: int, url: str, cookie: str, **headers):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{url}", headers={"Cookie": cookie, **headers}
    )
    try:
        with _OPENER.open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def _tokens(html: str) -> str:
    def swap(match):
        return "TOKEN" if _unmask_cipher_token(match.group()) == SECRET else match.group()

    return re.sub(r"(?<![A-Za-z0-9])[A-Za-z0-9]{64}(?![A-Za-z0-9])", swap, html)


def _uploads_shown(html: str) -> int:
    return len(re.findall(r'data-testid="submission-\d+"', html))


def test_pages_are_answered_from_snapshots_and_follow_every_change(make_world, nginx_port):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    member = Client()
    member.force_login(world.users["a"])
    cookie = f"sessionid={member.cookies['sessionid'].value}; csrftoken={SECRET}"
    args = [world.competition.slug, world.round.slug]
    page = reverse("round_detail", args=args)

    status, headers, first = _get(nginx_port, page, cookie)
    assert status == 200 and headers.get("X-Snapshot") is None  # Django, which records
    status, headers, second = _get(nginx_port, page, cookie)
    assert status == 200 and headers.get("X-Snapshot") == "hit"
    assert _tokens(second) == _tokens(first) and "TOKEN" in _tokens(second)
    assert headers["Content-Security-Policy"] and headers.get_all("Set-Cookie")[0].startswith(
        f"csrftoken={SECRET};"
    )
    shown = _uploads_shown(second)

    scored(world, "a", seed=5)  # uploaded and scored meanwhile
    status, headers, third = _get(nginx_port, page, cookie)
    assert headers.get("X-Snapshot") is None and _uploads_shown(third) == shown + 1
    status, headers, fourth = _get(nginx_port, page, cookie)
    assert headers.get("X-Snapshot") == "hit" and _tokens(fourth) == _tokens(third)

    fragment = page + "?fragment=1"
    etag = _get(nginx_port, fragment, cookie)[1]["ETag"]
    status, headers, _body = _get(nginx_port, fragment, cookie, **{"If-None-Match": etag})
    assert status == 304 and headers.get("X-Snapshot") == "hit"

    # a visitor's leaderboard: a new score elsewhere in the round is on the next answer
    leaderboard = reverse("leaderboard", args=args)
    visitor = f"csrftoken={SECRET}"
    _get(nginx_port, leaderboard, visitor)
    status, headers, board = _get(nginx_port, leaderboard, visitor)
    assert status == 200 and headers.get("X-Snapshot") == "hit"
    assert world.teams["c"].name not in board
    scored(world, "c", seed=3)
    status, headers, board = _get(nginx_port, leaderboard, visitor)
    assert headers.get("X-Snapshot") is None and world.teams["c"].name in board

    # the member's session ends: that cookie gets the page of a visitor, from Django
    assert world.users["a"].username in fourth
    member.logout()
    status, headers, body = _get(nginx_port, page, cookie)
    assert headers.get("X-Snapshot") is None and status == 200
    assert world.users["a"].username not in body
