"""Removing a member from the console: a confirmation page first (one tap on a phone must not
remove a student), then a message naming who left which team."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_remove_asks_first_then_names_the_member(client, world):
    client.force_login(world.organizer)
    c, team, member = world.competition.slug, world.teams["a"], world.users["a"]
    teams_page = client.get(reverse("console:teams", args=[c]), HTTP_ACCEPT_LANGUAGE="ja")
    address = reverse("console:member_remove", args=[c, team.pk, member.pk])
    assert f'href="{address}"' in teams_page.content.decode()
    # The link says what the confirmation and the captain's page say: 外す, not 削除 (delete).
    link = f'data-testid="remove-{member.username}">外す</a>'
    assert link in teams_page.content.decode()
    asked = client.get(address, HTTP_ACCEPT_LANGUAGE="ja")
    assert asked.status_code == 200
    page = asked.content.decode()
    assert f"{member.username} を {team.name} から外しますか？" in page
    assert team.memberships.filter(user=member).exists()
    removed = client.post(address, HTTP_ACCEPT_LANGUAGE="ja", follow=True)
    assert not team.memberships.filter(user=member).exists()
    assert f"{member.username} を {team.name} から外しました。" in removed.content.decode()


def test_the_confirmation_of_an_account_outside_the_team_is_not_found(client, world):
    client.force_login(world.organizer)
    c, team = world.competition.slug, world.teams["a"]
    outsider = world.users["b"]
    address = reverse("console:member_remove", args=[c, team.pk, outsider.pk])
    assert client.get(address).status_code == 404
