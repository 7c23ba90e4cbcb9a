"""The participants CSV of the console's Teams page: who is in which team, to join with the
rankings' CSV files (their ``team`` column) when a lecturer grades the students."""

import csv
import io

import pytest
from django.urls import reverse
from django.utils import timezone

from pwscup.console.services import console_team_disqualify

pytestmark = pytest.mark.django_db


def test_the_organizer_downloads_every_member_with_team_and_status(client, world):
    console_team_disqualify(user=world.organizer, team=world.teams["b"], reason="Copied.")
    c = world.competition.slug
    address = reverse("console:participants_csv", args=[c])
    client.force_login(world.organizer)
    teams_page = client.get(reverse("console:teams", args=[c])).content.decode()
    assert f'href="{address}"' in teams_page
    response = client.get(address)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="{c}_participants.csv"'
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert list(rows[0]) == [
        "account", "email", "team", "team_slug", "captain", "joined_at", "status"
    ]  # fmt: skip
    by_account = {row["account"]: row for row in rows}
    a, b = world.users["a"], world.users["b"]
    assert set(by_account) == {u.username for u in world.users.values()}
    assert by_account[a.username]["team"] == world.teams["a"].name
    assert by_account[a.username]["team_slug"] == world.teams["a"].slug
    assert by_account[a.username]["email"] == a.email
    assert by_account[a.username]["status"] == "ranked"
    joined = world.teams["a"].memberships.get(user=a).joined_at
    assert by_account[a.username]["joined_at"] == timezone.localtime(joined).isoformat()
    assert by_account[b.username]["status"] == "disqualified"
    assert by_account[a.username]["captain"] == (
        "yes" if world.teams["a"].captain_id == a.pk else "no"
    )


def test_a_participant_gets_no_participants_csv(client, world):
    client.force_login(world.users["a"])
    address = reverse("console:participants_csv", args=[world.competition.slug])
    assert client.get(address).status_code == 404
