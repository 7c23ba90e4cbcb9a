"""Requests cannot grow the cache: keys vary only on what a page reads, from bounded sets.

Anonymous visitors sending distinct query strings (``?p=N``), unknown axes or languages must
not add a key each: the cache is also what every page and throttle shares. Checked on the
real Redis (this run's database of it, under a key prefix of its own).
"""

import os
import uuid

import pytest
from django.core.cache import cache
from django.urls import reverse
from django_redis import get_redis_connection

from pwscup.settings.caches import redis_cache
from tests.pwscup.factories import scored

pytestmark = pytest.mark.django_db


@pytest.fixture
def redis_keys(settings):
    prefix = f"bounds-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    config = redis_cache(os.environ.get("TEST_REDIS_URL", settings.CELERY_BROKER_URL))
    settings.CACHES = {"default": {**config, "KEY_PREFIX": prefix}}
    connection = get_redis_connection("default")

    def count() -> int:
        return sum(1 for _ in connection.scan_iter(match=f"{prefix}:*"))

    yield count
    for key in connection.scan_iter(match=f"{prefix}:*"):
        connection.delete(key)


def test_distinct_query_strings_and_languages_add_no_cache_key(make_world, client, redis_keys):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    scored(world, "b", seed=2)
    leaderboard = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    for url in (leaderboard, leaderboard + "?x=U1", leaderboard + "?all=1"):
        assert client.get(url).status_code == 200
    for language in ("ja", "en"):
        client.get(leaderboard, HTTP_ACCEPT_LANGUAGE=language)
    settled = redis_keys()
    assert settled > 0  # the rankings and their tables are cached
    for n in range(300):
        assert client.get(f"{leaderboard}?p={n}").status_code == 200
        client.get(f"{leaderboard}?x=nope{n}&y=U{n}0")  # not metrics: the default axes
        client.get(leaderboard, HTTP_ACCEPT_LANGUAGE=f"x{n}")  # not supported: the default
    assert redis_keys() == settled


def test_a_team_polling_its_round_page_adds_no_cache_key(world, client, redis_keys):
    client.force_login(world.users["a"])
    url = reverse("round_detail", args=[world.competition.slug, world.round.slug])
    client.get(url)
    client.get(url + "?fragment=1")
    settled = redis_keys()
    for n in range(100):
        assert client.get(f"{url}?fragment=1&watch=anonymization-{n}&p={n}").status_code == 200
        assert client.get(f"{url}?history=U{n}").status_code == 200
    assert redis_keys() == settled
    # Keys no upload has (the Submit tab's notices): digits that are not ASCII, or too many
    # for an id, are left out.
    submit = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])
    for key in ("anonymization-²", "attack-" + "9" * 5000, "attack-99999999999999999999"):
        assert client.get(f"{submit}?fragment=1&watch={key}").status_code == 200, key[:20]


def test_an_unreachable_cache_is_a_miss_not_an_error(make_world, client, settings):
    world = make_world(leaderboard_public=True)
    scored(world, "a", seed=1)
    nothing_listens = "redis://127.0.0.1:1/0"
    settings.CACHES = {"default": redis_cache(nothing_listens)}
    assert cache.get("anything", "default") == "default"
    leaderboard = reverse("leaderboard", args=[world.competition.slug, world.round.slug])
    assert client.get(leaderboard).status_code == 200
    client.force_login(world.users["a"])
    page = client.get(reverse("round_detail", args=[world.competition.slug, world.round.slug]))
    assert page.status_code == 200 and world.teams["a"].name in page.content.decode()
    api = client.get(reverse("api:submissions", args=[world.competition.slug, world.round.slug]))
    assert api.status_code == 200  # the throttles counted nothing and let it through


def test_addresses_of_no_round_add_no_cache_key(world, client, redis_keys):
    """A round's access is cached per viewer once found (``round_access``); an address of
    no round, or of a round the viewer may not see, is never kept."""
    client.force_login(world.users["a"])
    url = reverse("round_detail", args=[world.competition.slug, world.round.slug])
    assert client.get(url).status_code == 200
    settled = redis_keys()
    for n in range(100):
        missing = reverse("round_detail", args=[world.competition.slug, f"no-round-{n}"])
        assert client.get(missing).status_code == 404
        elsewhere = reverse("round_detail", args=[f"no-cup-{n}", world.round.slug])
        assert client.get(elsewhere).status_code == 404
    assert redis_keys() == settled
