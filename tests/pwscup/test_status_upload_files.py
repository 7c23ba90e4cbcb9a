"""The files an upload must hold in the round status (``submission_types[].files``), the same
shape for every kind: a scorer round's multi-file rule (PWSCup 2022's release: the data and
its command log, in one ZIP), and ``pwscup status`` printing it in English and Japanese (a
live test server, the client in its own process; no worker: nothing is scored)."""

import pytest
from django.test import Client
from django.urls import reverse

from pwscup.api.services import api_token_create
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.scorer_world import CONFIG, scorer_world
from tests.support import run_pwscup as run

RULE = {"required": ["anonymized.csv", "commands.log"], "only_required": True}
NOTHING = {"required": [], "only_required": False, "zip": False}


def status_of(world, user) -> dict:
    token = api_token_create(user=user, name="t").secret
    url = reverse("api:round-status", args=[world.competition.slug, world.round.slug])
    response = Client().get(url, HTTP_AUTHORIZATION=f"Bearer {token}")
    assert response.status_code == 200, response.content
    return response.json()


@pytest.mark.django_db
def test_the_status_says_which_files_each_upload_must_hold():
    world = scorer_world(slug="stf", letters="a", config={**CONFIG, "release_files": RULE})
    [release] = status_of(world, world.users["a"])["submission_types"]
    assert release["key"] == "release"
    assert release["files"] == {**RULE, "zip": True}
    # A round requiring nothing, and a kind whose entries are made by hand (DP), say so in
    # the same shape.
    plain = scorer_world(slug="stf2", letters="a", build=False)
    [release] = status_of(plain, plain.users["a"])["submission_types"]
    assert release["files"] == NOTHING
    dp = build_dp_world(slug="stfdp")
    types = status_of(dp, dp.users["a"])["submission_types"]
    assert types and all(entry["files"] == NOTHING for entry in types)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("language", "line"),
    [
        (
            "en",
            "release: the upload must hold anonymized.csv, commands.log (and no other file). "
            "Upload them together in one ZIP file.",
        ),
        (
            "ja",
            "release: 提出に必要なファイル: anonymized.csv, commands.log（ほかのファイルは不可）。"
            "これらを 1 つの ZIP ファイルにまとめてアップロードしてください。",
        ),
    ],
)
def test_pwscup_status_lists_the_files_an_upload_must_hold(live_server, tmp_path, language, line):
    world = scorer_world(
        slug="stfcli", letters="a", config={**CONFIG, "release_files": RULE}, build=False
    )
    home = tmp_path / "a"
    home.mkdir()
    token = api_token_create(user=world.users["a"], name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token)
    assert login.returncode == 0, login.stderr
    status = run(["status", f"stfcli/{world.round.slug}"], config_dir=home, language=language)
    assert status.returncode == 0, status.stderr
    assert line in status.stdout.splitlines(), status.stdout


@pytest.mark.django_db
def test_the_schema_declares_the_files_of_every_submission_type(client):
    schema = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    entry = schema["SubmissionType"]
    assert "files" in entry["required"]
    files = schema[entry["properties"]["files"]["allOf"][0]["$ref"].rsplit("/", 1)[1]]
    assert sorted(files["required"]) == ["only_required", "required", "zip"]
    assert files["properties"]["required"]["type"] == "array"
