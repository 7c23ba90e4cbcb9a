"""After creating or joining a team from a round's page, the team page leads back to that
round (the form's ``next``, kept only when it stays on this site)."""

import pytest
from django.urls import reverse

from pwscup.accounts.services import user_create
from pwscup.kinds.tabs import OVERVIEW, SUBMIT, tab_url

pytestmark = pytest.mark.django_db


def test_creating_a_team_from_a_round_leads_back_to_it(world, client):
    newcomer = user_create(username="cup-newcomer", password="pw")
    client.force_login(newcomer)
    overview = client.get(tab_url(world.round, OVERVIEW)).content.decode()
    came_from = tab_url(world.round, OVERVIEW)
    assert f'name="next" value="{came_from}"' in overview  # the sign-up box keeps the page
    response = client.post(
        reverse("team_create", args=[world.competition.slug]),
        {"name": "Team New", "next": came_from},
        follow=True,
    )
    team_page = response.content.decode()
    assert response.redirect_chain[-1][0].startswith(reverse("team_detail", args=["cup"]))
    assert f'href="{came_from}" data-testid="back-link"' in team_page
    assert "Back to the round Round" in team_page


def test_joining_from_submit_leads_back_to_submit(world, client):
    newcomer = user_create(username="cup-joiner", password="pw")
    client.force_login(newcomer)
    came_from = tab_url(world.round, SUBMIT)
    response = client.post(
        reverse("team_join", args=[world.competition.slug]),
        {"code": world.teams["a"].invitation_code, "next": came_from},
        follow=True,
    )
    assert f'href="{came_from}" data-testid="back-link"' in response.content.decode()


@pytest.mark.parametrize(
    "target", ["https://evil.example/", "//evil.example/x", "javascript:alert(1)"]
)
def test_a_foreign_next_is_dropped(world, client, target):
    newcomer = user_create(username="cup-newcomer2", password="pw")
    client.force_login(newcomer)
    response = client.post(
        reverse("team_create", args=[world.competition.slug]),
        {"name": "Team Elsewhere", "next": target},
    )
    assert response.status_code == 302
    assert response["Location"] == reverse("team_detail", args=[world.competition.slug])
    page = client.get(response["Location"] + "?next=" + target).content.decode()
    assert 'data-testid="back-link"' not in page
    assert f'href="{target}"' not in page
