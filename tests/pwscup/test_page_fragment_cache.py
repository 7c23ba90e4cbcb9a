"""What pages read from the cache, and conditional GET: every viewer still sees its own.

The leaderboard's chart is drawn once per ranking version, language, viewer class (team,
organizer, visitor) and axes, the same for every team (the page marks the reader's own); these
tests fetch it as different viewers in a row and after a change, so a key missing one of those
would show one viewer another's drawing. The round page
is rendered on every request; its live poll is answered 304 while the team's jobs are unchanged.
"""

import re

import pytest
from django.urls import reverse

from pwscup.kinds.tabs import RESULTS, SUBMIT, tab_url
from pwscup.pwscup2015.leaderboards import charts
from tests.pwscup.factories import scored
from tests.pwscup.live_support import live_box, poll

pytestmark = pytest.mark.django_db


def _points(html: str, kind: str = "point") -> list[str]:
    return re.findall(rf'<circle class="{kind}[^"]*"[^>]*>', html)


def _chart(client, world, query=""):
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug]) + query
    response = client.get(url)
    assert response.status_code == 200
    return response.content.decode().split('data-testid="scatter"', 1)[1].split("</figure>")[0]


@pytest.fixture
def board(make_world):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    return world


def _own_team(client, world) -> list[str]:
    url = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    return re.findall(r'data-own-team="([^"]*)"', client.get(url).content.decode())


def test_the_chart_is_drawn_once_for_every_team_and_each_page_names_its_reader(
    board, client, monkeypatch
):
    drawn = []
    scatter = charts.scatter
    monkeypatch.setattr(charts, "scatter", lambda **kw: drawn.append(1) or scatter(**kw))
    client.force_login(board.users["a"])
    chart_a = _chart(client, board)
    client.force_login(board.users["b"])
    chart_b = _chart(client, board)
    # One drawing (with its label placement) served to both teams, marked by neither.
    assert len(drawn) == 1 and chart_a == chart_b
    assert [p for p in _points(chart_a) if " own" in p] == []
    assert "own-swatch" in chart_a  # the legend's "your team", for the page's marking
    assert _own_team(client, board) == ["teamB"]
    client.force_login(board.users["a"])
    assert _own_team(client, board) == ["teamA"]
    client.logout()
    visitor = _chart(client, board)
    assert "own-swatch" not in visitor and _own_team(client, board) == [""]


def test_the_cached_chart_follows_axes_faint_points_and_new_scores(board, client):
    client.force_login(board.users["b"])
    assert 'data-axis="U4" data-testid="scatter-x-label"' in _chart(client, board)
    assert 'data-axis="U1" data-testid="scatter-x-label"' in _chart(client, board, "?x=U1")
    assert _points(_chart(client, board, "?all=1"), "faint-point") != []
    client.force_login(board.organizer)
    assert len(_points(_chart(client, board, "?all=1"), "faint-point")) == 2  # both teams'
    client.force_login(board.users["b"])
    assert len(_points(_chart(client, board, "?all=1"), "faint-point")) == 1  # its own only
    scored(board, "b", seed=7)  # a new score: a new ranking version, a new drawing
    assert len(_points(_chart(client, board, "?all=1"), "faint-point")) == 2


def _round_page(client, world, query="", tab=SUBMIT):
    """A tab of the round page (the jobs table and its polled fragment are on Submit)."""
    url = tab_url(world.round, tab) + query
    response = client.get(url)
    assert response.status_code == 200
    return response


def test_the_jobs_table_posts_with_each_readers_own_csrf_token(board):
    from django.contrib.auth import get_user_model
    from django.test import Client

    from pwscup.accounts.services import membership_add

    scored(board, "a", seed=5)  # two finished submissions: a "Make final" form on one
    second = get_user_model().objects.create_user(username="a-second", password="pw-second-1")
    membership_add(team=board.teams["a"], user=second)
    first_client, second_client = Client(), Client(enforce_csrf_checks=True)
    first_client.force_login(board.users["a"])
    second_client.force_login(second)
    first = _round_page(first_client, board).content.decode()
    page = _round_page(second_client, board).content.decode()
    assert 'data-testid="make-final"' in first and 'data-testid="make-final"' in page
    # The fragment's forms carry no token (the page's script gives them the page's own): the
    # same bytes for every reader and every poll.
    fragment = _round_page(second_client, board, "?fragment=1").content.decode()
    assert 'data-testid="make-final"' in fragment and "csrfmiddlewaretoken" not in fragment
    assert fragment == _round_page(first_client, board, "?fragment=1").content.decode()
    # The second reader's form posts with its own page's token.
    form = page.split('data-testid="make-final"')[0].rsplit("<form", 1)[1]
    action = re.search(r'action="([^"]+)"', form).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    response = second_client.post(action, {"csrfmiddlewaretoken": token})
    assert response.status_code == 302, response.status_code


def test_the_jobs_table_shows_a_new_upload_at_once(board, client):
    from tests.pwscup.factories import upload

    client.force_login(board.users["a"])
    before = _round_page(client, board).content.decode()
    url, etag = live_box(before)
    pending = upload(board, "a", board.original)
    assert f'data-testid="submission-{pending.pk}"' not in before
    assert f'data-testid="submission-{pending.pk}"' in _round_page(client, board).content.decode()
    # The page's poll sees the new upload (upload_keep bumps the team's version)...
    assert poll(client, url, etag).status_code == 200
    # ...and the fragment it then fetches shows it.
    changed = _round_page(client, board, "?fragment=1")
    assert f'data-testid="submission-{pending.pk}"' in changed.content.decode()


def test_the_round_page_carries_each_browsers_own_csrf_token(board):
    # One user, two browsers: two CSRF secrets. The page below the header is cached per user;
    # the second browser's forms must post with its own token.
    from django.test import Client

    scored(board, "a", seed=5)
    first_client, second_client = Client(), Client(enforce_csrf_checks=True)
    first_client.force_login(board.users["a"])
    second_client.force_login(board.users["a"])
    assert "make-final" in _round_page(first_client, board).content.decode()
    page = _round_page(second_client, board).content.decode()
    form = page.split('data-testid="make-final"')[0].rsplit("<form", 1)[1]
    action = re.search(r'action="([^"]+)"', form).group(1)
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', form).group(1)
    assert second_client.post(action, {"csrfmiddlewaretoken": token}).status_code == 302


def test_the_round_page_follows_every_thing_it_shows(board, client):
    import datetime as dt
    import zoneinfo

    from pwscup.accounts.models import Team
    from pwscup.competitions.models import Competition, Phase, Round

    client.force_login(board.users["a"])
    page = _round_page(client, board).content.decode()
    assert "Team A" in page
    # Bulk updates (no save(), no signal): each still shows on the next view.
    Round.objects.filter(pk=board.round.pk).update(name="Renamed round")
    assert "Renamed round" in _round_page(client, board).content.decode()
    Competition.objects.filter(pk=board.competition.pk).update(name="Renamed cup")
    assert "Renamed cup" in _round_page(client, board).content.decode()
    Team.objects.filter(pk=board.teams["a"].pk).update(name="Renamed A")
    assert "Renamed A" in _round_page(client, board).content.decode()
    closes = board.anonymization.closes_at + dt.timedelta(days=3)
    Phase.objects.filter(pk=board.anonymization.pk).update(closes_at=closes)
    # The page shows the date in the round's time zone (after 15:00 UTC, Tokyo's next day).
    shown = closes.astimezone(zoneinfo.ZoneInfo(board.round.timezone))
    assert shown.strftime("%Y-%m-%d") in _round_page(client, board).content.decode()
    # the chart's metrics asked for in the query string
    assert (
        _round_page(client, board, "?history=U1", tab=RESULTS).content
        != _round_page(client, board, tab=RESULTS).content
    )
    # another language
    client.cookies["django_language"] = "ja"
    assert 'lang="ja"' in _round_page(client, board).content.decode()
    assert "アップロード" in _round_page(client, board).content.decode()


def test_an_unchanged_scope_is_answered_304_and_a_change_is_not(board, client):
    from tests.pwscup.factories import upload

    client.force_login(board.users["a"])
    url, etag = live_box(_round_page(client, board).content.decode())
    again = poll(client, url, etag)
    assert again.status_code == 304 and again.content == b""
    upload(board, "a", board.original)
    changed = poll(client, url, etag)
    assert changed.status_code == 200 and changed["ETag"] != etag


def test_the_cached_leaderboard_page_follows_what_it_shows(board, client):
    from pwscup.competitions.models import Competition, Round

    url = reverse("leaderboard", args=[board.competition.slug, board.round.slug])
    client.force_login(board.users["a"])
    token = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')
    first = token.sub("", client.get(url).content.decode())
    assert token.sub("", client.get(url).content.decode()) == first  # the table from the cache
    Round.objects.filter(pk=board.round.pk).update(name="Renamed round")
    assert "Renamed round" in client.get(url).content.decode()
    Competition.objects.filter(pk=board.competition.pk).update(name="Renamed cup")
    assert "Renamed cup" in client.get(url).content.decode()
    scored(board, "c", seed=3)  # a new team on the board: a new ranking version
    assert 'data-testid="row-teamC"' in client.get(url).content.decode()
    client.cookies["django_language"] = "ja"
    assert "順位付けルール" in client.get(url).content.decode()


def test_the_scoring_job_leaves_the_new_versions_leaderboard_rows_cached(board):
    """The worker that writes a score ranks the phase again for the new ranking version:
    the next page reads the rows from the cache instead of ranking them itself."""
    from django.core.cache import cache

    from pwscup.competitions.models import Round
    from pwscup.pwscup2015.leaderboards.selectors import anonymization_leaderboard
    from pwscup.pwscup2015.ranking_cache import ranking_cache_key

    def cached_rows():
        round_ = Round.objects.select_related("pwscup2015").get(pk=board.round.pk)
        name = f"leaderboard-{board.anonymization.pk}"
        return cache.get(ranking_cache_key(round=round_, name=name))

    before = cached_rows()
    assert [row.team.pk for row in before] == [
        row.team.pk for row in anonymization_leaderboard(phase=board.anonymization)
    ]
    scored(board, "c", seed=3)  # a new version: a key nobody has read yet
    after = cached_rows()
    assert after is not None
    assert board.teams["c"].pk in {row.team.pk for row in after}
    assert board.teams["c"].pk not in {row.team.pk for row in before}
