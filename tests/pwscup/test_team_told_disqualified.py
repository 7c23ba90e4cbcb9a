"""A disqualified team is told: its team page says so, with the organizers' reason (the
console's disqualify form says the team is told why)."""

import pytest
from django.urls import reverse

from pwscup.console.services import console_team_disqualify, console_team_reinstate

pytestmark = pytest.mark.django_db


def test_the_team_page_tells_a_disqualified_team_why(client, world):
    team = world.teams["a"]
    address = reverse("team_detail", args=[world.competition.slug])
    client.force_login(world.users["a"])
    assert 'data-testid="team-disqualified"' not in client.get(address).content.decode()
    console_team_disqualify(user=world.organizer, team=team, reason="同じファイルを提出したため")
    page = client.get(address, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert 'data-testid="team-disqualified"' in page
    assert "運営者がこのチームを失格にしました" in page
    assert "同じファイルを提出したため" in page
    client.force_login(world.users["b"])  # another team never reads it
    other = client.get(address).content.decode()
    assert "同じファイルを提出したため" not in other
    console_team_reinstate(user=world.organizer, team=team)
    client.force_login(world.users["a"])
    assert 'data-testid="team-disqualified"' not in client.get(address).content.decode()
