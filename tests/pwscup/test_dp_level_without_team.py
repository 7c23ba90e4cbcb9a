"""A participant without a team (never joined, or removed by the organizers) who opens a
level's page is sent to the round's Submit tab, which offers to create or join a team,
instead of a "page not found"."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from tests.pwscup.dp_world import build_dp_world


@pytest.fixture
def world(db):
    return build_dp_world()


def test_a_level_page_sends_an_account_without_team_to_the_join_form(world):
    loner = get_user_model().objects.create_user("loner", password="pw-pw-pw-pw-1")
    client = Client()
    client.force_login(loner)
    slugs = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    level = reverse("dp:level", kwargs={**slugs, "level": "eps-1"})
    response = client.get(level, HTTP_ACCEPT_LANGUAGE="ja")
    submit = reverse("round_tab", args=[world.competition.slug, world.round.slug, "submit"])
    assert response.status_code == 302 and response["Location"] == submit
    page = client.get(submit, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="team-create"' in page
    # A level the round does not have stays a 404, team or not.
    missing = reverse("dp:level", kwargs={**slugs, "level": "eps-99"})
    assert client.get(missing).status_code == 404
