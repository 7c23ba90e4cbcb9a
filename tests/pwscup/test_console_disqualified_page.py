"""The disqualify page of a team already disqualified says so (since when, by whom, why) and
offers the way back, reinstating, instead of the form; a form posted from a page opened
before the decision (another organizer's tab) changes nothing."""

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from pwscup.accounts.models import TeamDisqualification
from pwscup.competitions.models import AuditEntry
from pwscup.console.services import console_team_disqualify
from tests.pwscup.rendered_forms import form_fields_of, post_data

pytestmark = pytest.mark.django_db


def _address(world, team) -> str:
    return reverse("console:team_disqualify", args=[world.competition.slug, team.pk])


def test_the_page_of_a_disqualified_team_shows_the_decision_and_the_way_back(client, world):
    team = world.teams["a"]
    console_team_disqualify(user=world.organizer, team=team, reason="Two accounts <b>")
    client.force_login(world.organizer)
    page = client.get(_address(world, team)).content.decode()
    assert f"<h1>{team.name} is disqualified</h1>" in page
    assert f"by {world.organizer.username}." in page
    assert "Two accounts &lt;b&gt;" in page
    reinstate = reverse("console:team_reinstate", args=[world.competition.slug, team.pk])
    assert f'action="{reinstate}"' in page
    assert 'name="reason"' not in page
    japanese = client.get(_address(world, team), HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert f"<h1>{team.name} は失格です</h1>" in japanese
    assert "失格を取り消す" in japanese


def test_a_form_posted_after_another_organizer_disqualified_the_team_changes_nothing(client, world):
    team = world.teams["b"]
    client.force_login(world.organizer)
    address = _address(world, team)
    fields = form_fields_of(client.get(address).content.decode(), "team-form")
    console_team_disqualify(user=world.organizer, team=team, reason="First decision")
    logged = AuditEntry.objects.filter(action=AuditEntry.Action.TEAM_DISQUALIFIED).count()
    response = client.post(address, post_data(fields, {"reason": "Second decision"}))
    assert response.status_code == 200
    assert "is already disqualified: nothing was changed." in response.content.decode()
    assert list(
        TeamDisqualification.objects.filter(team=team).values_list("reason", flat=True)
    ) == ["First decision"]
    assert AuditEntry.objects.filter(action=AuditEntry.Action.TEAM_DISQUALIFIED).count() == logged


def test_the_service_refuses_a_second_decision_saying_how_to_change_the_reason(world):
    team = world.teams["c"]
    console_team_disqualify(user=world.organizer, team=team, reason="First")
    with pytest.raises(ValidationError, match="reinstate the team first"):
        console_team_disqualify(user=world.organizer, team=team, reason="Second")
    assert TeamDisqualification.objects.get(team=team).reason == "First"
