"""What a logged-in user sees is never kept by a cache: ``Cache-Control: private, no-store``
on every answer to a session or an API token (pwscup/core/middleware.py); public pages seen by
anonymous visitors stay cacheable, and the round page's live poll still answers 304. The
pages that opt in to being kept and revalidated (a round's overview and leaderboards:
``tests/pwscup/test_conditional_pages.py``) are ``private, no-cache``, never shared."""

import pytest
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.kinds.tabs import RESULTS, SUBMIT, tab_url
from tests.pwscup.factories import scored
from tests.pwscup.live_support import live_box, poll

pytestmark = pytest.mark.django_db


def _directives(response) -> set[str]:
    return {part.strip() for part in response.get("Cache-Control", "").split(",") if part.strip()}


@pytest.fixture
def team_a(world):
    submission = scored(world, "a", seed=1, delete=2)
    args = [world.competition.slug, world.round.slug]
    api_round = f"/api/v1/competitions/{world.competition.slug}/rounds/{world.round.slug}/"
    return {
        "pages": {
            "Submit tab": tab_url(world.round, SUBMIT),
            "Results tab": tab_url(world.round, RESULTS),
            "original.csv": reverse("original_download", args=args),
            "upload file": reverse("submission_file", args=[submission.pk]),
            "profile": reverse("profile"),
        },
        "api": {
            "me": "/api/v1/me/",
            "round": api_round,
            "original.csv": api_round + "original.csv",
            "submissions": api_round + "submissions/",
        },
    }


def test_every_private_page_and_download_is_private_and_not_stored(client, world, team_a):
    client.force_login(world.users["a"])
    for name, url in team_a["pages"].items():
        response = client.get(url)
        assert response.status_code == 200, name
        assert {"private", "no-store"} <= _directives(response), (name, response["Cache-Control"])
        assert "public" not in _directives(response), name


def test_every_api_answer_to_a_token_is_private_and_not_stored(client, world, team_a):
    token = api_token_create(user=world.users["a"], name="t").secret
    for name, url in team_a["api"].items():
        response = client.get(url, HTTP_AUTHORIZATION=f"Bearer {token}")
        assert response.status_code == 200, name
        assert {"private", "no-store"} <= _directives(response), (
            name,
            response.get("Cache-Control"),
        )


def test_the_api_with_the_session_is_private_too(client, world, team_a):
    client.force_login(world.users["a"])
    response = client.get(team_a["api"]["submissions"])
    assert response.status_code == 200
    assert {"private", "no-store"} <= _directives(response)


def test_the_round_pages_polling_still_gets_304(client, world, team_a):
    client.force_login(world.users["a"])
    url, etag = live_box(client.get(tab_url(world.round, SUBMIT)).content.decode())
    again = poll(client, url, etag)
    assert again.status_code == 304
    assert {"private", "no-store"} <= _directives(again)


def test_an_anonymous_visitors_public_pages_are_not_marked(client, make_world):
    world = make_world(leaderboard_public=True)
    args = [world.competition.slug, world.round.slug]
    for url in (reverse("leaderboard", args=args), "/"):
        response = client.get(url)
        assert response.status_code == 200, url
        assert "no-store" not in _directives(response), url
        assert "private" not in _directives(response), url
    # An anonymous API answer neither (the public competitions list).
    response = client.get("/api/v1/competitions/")
    assert response.status_code == 200
    assert "no-store" not in _directives(response)
