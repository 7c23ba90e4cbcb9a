"""A cache outage neither rolls the rankings back nor pins them (issue 46).

The Django cache is a Redis server of the test's own, configured as in production
(``pwscup.settings.caches.redis_cache``: an unreachable Redis is a miss, never an error).
The leaderboard is read and kept (its page by a browser, with its ETag); the Redis then
shuts down saving its data, a new score is written through the scoring service while
it is down, and the Redis starts again from its saved data, holding every entry of
before. The leaderboard's page and the API must show the new score at once, and the
browser's copy must be answered in full (a new ETag), not 304.
"""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.core.templatetags.pwscup_tags import score
from pwscup.settings.caches import redis_cache
from tests.pwscup.factories import scored

pytestmark = pytest.mark.django_db


def _browser(world, letter: str) -> Client:
    """A team member's browser, with its CSRF cookie (a first page made it)."""
    client = Client()
    client.force_login(world.users[letter])
    client.get(reverse("home"))
    return client


def _shut_down_saving(server) -> int:
    """Shut the Redis down with SHUTDOWN SAVE: it writes its keys to dump.rdb in its folder,
    which ``start()`` (the same port and folder) loads back. Returns how many it kept."""
    keys = server.client().dbsize()
    assert server.client().keys("*ranking:*")  # the leaderboard's ranking and its table
    server.client().shutdown(save=True)
    server.process.wait(timeout=20)
    server.process = None
    return keys


def _row(html: str, slug: str) -> str:
    return html.split(f'data-testid="row-{slug}"')[1].split("</tr>")[0]


def test_a_score_written_while_the_cache_is_down_is_on_the_leaderboard_when_it_is_back(
    make_world, redis_server, settings
):
    settings.CACHES = {"default": redis_cache(redis_server.url)}
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    browser = _browser(world, "a")
    args = [world.competition.slug, world.round.slug]
    page_url = reverse("leaderboard", args=args)
    api_url = reverse("api:leaderboard", args=args)

    page = browser.get(page_url)
    assert page.status_code == 200 and page.has_header("ETag")
    assert 'data-testid="row-teamB"' not in page.content.decode()
    assert [row["team"]["slug"] for row in browser.get(api_url).json()["rows"]] == ["teamA"]
    assert browser.get(page_url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304

    kept = _shut_down_saving(redis_server)
    fresh = scored(world, "b", seed=2)  # through the scoring service, the cache down
    redis_server.start()
    assert redis_server.client().dbsize() == kept  # back with the entries of before

    again = browser.get(page_url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 200
    assert again["ETag"] != page["ETag"]
    assert f'data-metric="U1">{score(fresh.scores["U1"])}<' in _row(again.content.decode(), "teamB")
    rows = {row["team"]["slug"]: row for row in browser.get(api_url).json()["rows"]}
    assert set(rows) == {"teamA", "teamB"}
    assert rows["teamB"]["submission"] == fresh.pk
    assert rows["teamB"]["scores"]["U1"] == pytest.approx(fresh.scores["U1"])
