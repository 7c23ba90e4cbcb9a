"""The DP round in the organizer admin: created through the service (spec messages on a bad
configuration), ledgers and charges read-only, another competition's rows invisible."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from pwscup.competitions.models import Round
from pwscup.dp.services import dp_query_answer
from tests.pwscup.dp_world import TOY_CONFIG, build_dp_world, toy_csv


@pytest.fixture
def world(db):
    return build_dp_world(slug="dpadmin")


def staff_client(world) -> Client:
    world.organizer.is_staff = True
    world.organizer.save()
    from django.contrib.auth.models import Permission

    world.organizer.user_permissions.add(*Permission.objects.filter(content_type__app_label="dp"))
    client = Client()
    client.force_login(world.organizer)
    return client


def test_admin_creates_a_dp_round_and_shows_the_spec_message(world):
    client = staff_client(world)
    data = {
        "competition": world.competition.pk,
        "name": "Admin DP",
        "slug": "admin-dp",
        "config_json": json.dumps({**TOY_CONFIG, "levels": [{"id": "eps-0", "epsilon": "0"}]}),
        "timezone": "Asia/Tokyo",
        "opens_at": "2026-01-01 00:00", "closes_at": "2026-12-01 00:00",
        "table": SimpleUploadedFile("hidden.csv", toy_csv()),
    }  # fmt: skip
    response = client.post("/admin/dp/dpround/add/", data)
    assert response.status_code == 200
    assert "Level &#x27;eps-0&#x27; has epsilon 0; it must be &gt; 0" in response.content.decode()
    data["config_json"] = "{"
    data["table"] = SimpleUploadedFile("hidden.csv", toy_csv())
    response = client.post("/admin/dp/dpround/add/", data)
    assert response.status_code == 200
    assert "Not valid JSON: the syntax breaks at line 1, column 2." in response.content.decode()
    data["config_json"] = json.dumps(TOY_CONFIG)
    data["table"] = SimpleUploadedFile("hidden.csv", toy_csv())
    response = client.post("/admin/dp/dpround/add/", data)
    assert response.status_code == 302, response.content.decode()[:2000]
    created = Round.objects.get(slug="admin-dp")
    assert created.kind == "dp" and created.dp.config["levels"][0]["id"] == "eps-1"


def test_ledgers_and_charges_are_read_only_in_the_admin(world):
    dp_query_answer(
        dp_round=world.dp_round, team=world.teams["a"], user=world.users["a"], level="eps-1",
        payload={"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"},
    )  # fmt: skip
    client = staff_client(world)
    listing = client.get("/admin/dp/ledger/")
    assert listing.status_code == 200 and "Team A" in listing.content.decode()
    assert client.get("/admin/dp/charge/add/").status_code == 403
    # The round's page names its fields in the reader's language ("Config text" before).
    change = f"/admin/dp/dpround/{world.dp_round.pk}/change/"
    page = client.get(change, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "設定（テキスト）" in page and "採点日時" in page
    assert "Config text" not in page and "Scored at" not in page
    other = build_dp_world(slug="dpadmin2")
    assert "dpadmin2" not in client.get("/admin/dp/dpround/").content.decode()
    assert client.get(f"/admin/dp/dpround/{other.dp_round.pk}/change/").status_code == 404
