"""Every kind in the REST API (issue 34): the round status and the standings, the same shape
for the 2015, DP and sequential rounds (``…/rounds/{r}/status/``, ``…/standings/``), and the
sequential kind's own endpoints (pwscup/sequential/api/views.py) with its pages' access rules: no
other team's file, no future release, 404 for a round of another kind."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils.dateparse import parse_datetime

from pwscup.api.services import api_token_create
from pwscup.dp import kit
from pwscup.dp.models import Estimate
from pwscup.sequential.models import Release
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.factories import freeze as freeze_2015
from tests.pwscup.factories import scored
from tests.pwscup.seq_web_world import (
    attack_phase_world,
    fixture,
    freeze,
    publish,
    run_seq_jobs,
    seq_world,
)


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def status_of(world, user) -> dict:
    response = Client().get(address(world, "round-status"), **bearer(user))
    assert response.status_code == 200, response.content
    return response.json()


@pytest.fixture
def seq(db):
    return seq_world(slug="seqapi")


@pytest.fixture
def dp(db):
    return build_dp_world(slug="dpstatus")


def _bytes(content) -> bytes:
    return content.encode() if isinstance(content, str) else content


def test_the_status_of_a_dp_round_answers_the_team(dp, seq):
    status = status_of(dp, dp.users["a"])
    assert status["kind"] == "dp" and status["team"]["slug"] == "teama"
    assert [t["key"] for t in status["submission_types"]] == ["estimate-eps-1", "estimate-eps-4"]
    assert all(t["open"] for t in status["submission_types"])
    assert [d["name"] for d in status["downloads"]] == [
        "dp_sample_estimate.csv",
        "dp_config.json",
        "practice_table.csv",
    ]
    assert status["schedule"][0]["state"] == "open" and status["uploads"] == []
    # What the kit's commands read, as the kit holds them; never to another competition's team.
    client, headers = Client(), bearer(dp.users["a"])
    kit_files = {
        f.name: f.content for f in kit.round_kit_files(dp_round=dp.dp_round, team=dp.teams["a"])
    }
    for download in status["downloads"][1:]:
        answer = client.get(download["url"], **headers)
        assert answer.status_code == 200
        assert answer.content == _bytes(kit_files[download["name"]])
        assert client.get(download["url"], **bearer(seq.users["a"])).status_code == 404
    stranger = client.get(address(dp, "round-status"), **bearer(seq.users["a"]))
    assert stranger.status_code == 404 or stranger.json()["downloads"] == []
    # The sample uploads as is through the status' address; the upload is listed with its #n.
    sample = client.get(status["downloads"][0]["url"], **headers)
    assert sample.status_code == 200
    kind = status["submission_types"][0]
    accepted = client.post(
        kind["url"],
        {"file": SimpleUploadedFile("estimate.csv", sample.content)},
        **headers,
    )
    assert accepted.status_code == 202, accepted.content
    upload = status_of(dp, dp.users["a"])["uploads"][0]
    assert (upload["type"], upload["number"], upload["status"]) == ("estimate-eps-1", 1, "queued")
    assert upload["url"] == accepted.json()["url"]
    Estimate.objects.filter(pk=upload["id"]).update(status=Estimate.Status.FINISHED)
    polled = client.get(upload["url"], **headers).json()
    assert polled["status"] == "finished" and polled["scores"] == {}  # no score before the close
    # Another team sees neither the estimate nor its address.
    assert status_of(dp, dp.users["b"])["uploads"] == []
    assert client.get(upload["url"], **bearer(dp.users["b"])).status_code == 404
    # The standings: not before the close (no score leaks), the DP leaderboard's own answer.
    board = client.get(address(dp, "round-standings"), **headers)
    assert board.status_code == 404 and board.json()["code"] == "not_closed"


def test_the_status_of_a_sequential_round_answers_the_team(seq):
    publish(seq, "a", 1, fixture("zhang_release_1.csv"))
    status = status_of(seq, seq.users["a"])
    assert status["kind"] == "sequential"
    assert status["schedule"][0]["label"] == "Release 1"
    [release] = status["submission_types"]
    assert release["key"] == "release" and release["open"] is True
    assert release["fields"][0]["name"] == "step" and release["fields"][0]["choices"] == ["1"]
    # Online mode: T(1) only, never the future release.
    assert [d["name"] for d in status["downloads"]] == ["config.json", "master.csv", "T1.csv"]
    [upload] = status["uploads"]
    assert (upload["number"], upload["status"], upload["about"]) == (1, "finished", "release 1")
    assert upload["scores"]["MINV"] == 2 and upload["scores_text"]["MINV"] == "2"
    assert [m["key"] for m in status["metrics"]][:2] == ["MU_min", "MINV"]
    # Team B has uploaded nothing: its status lists none of A's.
    assert status_of(seq, seq.users["b"])["uploads"] == []


def test_a_sequential_release_uploaded_through_the_api_is_kept_and_numbered(seq):
    client, headers = Client(), bearer(seq.users["a"])
    url = status_of(seq, seq.users["a"])["submission_types"][0]["url"]
    content = fixture("zhang_release_1.csv")
    accepted = client.post(
        url, {"file": SimpleUploadedFile("mine.csv", content), "step": "1"}, **headers
    )
    assert accepted.status_code == 202, accepted.content
    body = accepted.json()
    assert (body["number"], body["status"]) == (1, "queued")
    assert body["message"] == "Release 1 (#1) is received: a worker checks it."
    release = Release.objects.get(pk=body["id"])
    assert release.file.read() == content and release.original_filename == "mine.csv"
    run_seq_jobs()
    assert client.get(body["url"], **headers).json()["status"] == "finished"
    # The page's rules, enforced by the service: release 2 is not open before 1 is frozen.
    refused = client.post(
        url,
        {"file": SimpleUploadedFile("r2.csv", fixture("zhang_release_2_table9.csv")), "step": "2"},
        **headers,
    )
    assert refused.status_code == 403
    assert refused.json()["message"] == "Release 2 opens when release 1 is frozen."
    missing = client.post(url, {"step": "1"}, **headers)
    assert missing.status_code == 400 and missing.json()["code"] == "invalid"


def test_no_other_teams_file_and_no_future_release_over_the_api(seq):
    mine = publish(seq, "a", 1, fixture("zhang_release_1.csv"))
    a, b = bearer(seq.users["a"]), bearer(seq.users["b"])
    client = Client()
    assert client.get(address(seq, "seq-release", mine.pk), **a).status_code == 200
    assert client.get(address(seq, "seq-release-file", mine.pk), **a).status_code == 200
    for name in ("seq-release", "seq-release-file"):
        assert client.get(address(seq, name, mine.pk), **b).status_code == 404
    assert client.get(address(seq, "seq-step", 1), **a).status_code == 200
    future = client.get(address(seq, "seq-step", 2), **a)
    assert future.status_code == 404 and b"Disease" not in future.content
    # The master as known at release 1: nobody's departure after it (online mode).
    master = client.get(address(seq, "seq-master"), **a).content
    assert master.startswith(b"pid,") and master.count(b"\n") > 1
    # Once release 1 is frozen, release 2 is visible.
    publish(seq, "b", 1, fixture("zhang_release_1.csv"))
    freeze(seq)
    assert client.get(address(seq, "seq-step", 2), **a).status_code == 200
    assert [d["name"] for d in status_of(seq, seq.users["a"])["downloads"]][-1] == "T2.csv"
    # A competition's visitor without a team gets nothing of the team's.
    outsider = api_token_create(user=seq.organizer, name="o").secret
    assert (
        client.get(
            address(seq, "seq-releases"), HTTP_AUTHORIZATION=f"Bearer {outsider}"
        ).status_code
        == 404
    )


def test_kind_endpoints_answer_404_on_a_round_of_another_kind(seq, dp):
    headers = bearer(dp.users["a"])
    for name in ("seq-releases", "seq-master", "seq-config"):
        response = Client().get(address(dp, name), **headers)
        assert response.status_code == 404, name
        assert response.json()["code"] == "not_found"
    assert (
        Client().get(address(seq, "dp-sample-estimate"), **bearer(seq.users["a"])).status_code
        == 404
    )


def test_the_sequential_standings_are_the_leaderboard_pages(seq):
    publish(seq, "a", 1, fixture("zhang_release_1.csv"))
    publish(seq, "b", 1, fixture("zhang_release_1.csv"))
    freeze(seq)
    board = Client().get(address(seq, "round-standings"), **bearer(seq.users["a"]))
    assert board.status_code == 200, board.content
    [table] = board.json()["tables"]
    assert table["columns"][:3] == ["Rank", "Team", "Validity"]
    names = [row[1] for row in table["rows"]]
    assert "Team A" in names and "Team B" in names
    # An anonymous visitor, before the results are published: the page's 404.
    assert Client().get(address(seq, "round-standings")).status_code == 404


def test_the_competition_lists_every_rounds_kind_and_status(seq):
    response = Client().get(
        reverse("api:competition-detail", args=[seq.competition.slug]), **bearer(seq.users["a"])
    )
    [round_] = response.json()["rounds"]
    assert round_["kind"] == "sequential"
    assert round_["url"] == address(seq, "round-status")
    assert json.loads(Client().get(round_["url"], **bearer(seq.users["a"])).content)["slug"] == "s1"


def test_the_sequential_attack_phase_over_the_api(db):

    world = attack_phase_world(slug="seqapiatk")

    status = status_of(world, world.users["b"])
    attack = next(t for t in status["submission_types"] if t["key"] == "attack")
    assert attack["open"] and attack["fields"][0]["choices"] == ["teamA"]
    files = [d["name"] for d in status["downloads"] if d["name"].startswith("team")]
    assert files and all(name.startswith("teamA_") for name in files)  # never its own, no pid
    client, headers = Client(), bearer(world.users["b"])
    published = client.get(
        next(d["url"] for d in status["downloads"] if d["name"] == "teamA_release_2.csv"), **headers
    )
    assert published.status_code == 200 and b"pid" not in published.content.split(b"\n")[0]

    guesses = (
        b"pid,guess\nBob,dyspepsia\nAlice,dyspepsia\nAndy,dyspepsia\nDavid,\nEmily,dyspepsia\n"
    )
    accepted = client.post(
        attack["url"],
        {"file": SimpleUploadedFile("guesses.csv", guesses), "target": "teamA"},
        **headers,
    )
    assert accepted.status_code == 202, accepted.content
    assert accepted.json()["about"] == "Team A" and accepted.json()["status"] == "queued"
    run_seq_jobs()
    scored = client.get(accepted.json()["url"], **headers).json()
    assert scored["status"] == "finished" and 0 <= scored["scores"]["accuracy"] <= 1
    # The round's metrics name the attack's score too: `pwscup submit --wait` and `pwscup
    # status` print the round's metrics (they printed an empty table for the guesses).
    metrics = {m["key"]: m for m in status_of(world, world.users["b"])["metrics"]}
    assert metrics["accuracy"]["name"] == "accuracy" and metrics["accuracy"]["headline"]
    # Team A sees neither B's attack nor may it attack itself.
    assert client.get(accepted.json()["url"], **bearer(world.users["a"])).status_code == 404
    own = client.post(
        attack["url"],
        {"file": SimpleUploadedFile("g.csv", guesses), "target": "teamA"},
        **bearer(world.users["a"]),
    )
    assert own.status_code == 403
    assert own.json()["message"] == "A team does not attack its own releases."


def test_the_status_says_when_a_frozen_phase_really_closed(world):
    """After the freeze the anonymization phase is closed: its close is the freeze (it read the
    planned close, still ahead, beside "closed"), and the planned one is given apart."""
    scored(world, "a", seed=1)
    planned = world.anonymization.closes_at
    freeze_2015(world)
    frozen_at = world.round.pwscup2015.frozen_at
    assert frozen_at < planned
    line = status_of(world, world.users["a"])["schedule"][0]
    assert line["state"] == "closed"
    assert parse_datetime(line["closes_at"]) == frozen_at
    assert parse_datetime(line["planned_closes_at"]) == planned
    attack = status_of(world, world.users["a"])["schedule"][1]
    assert attack["planned_closes_at"] is None


def test_the_sequential_standings_before_any_freeze_say_no_release_is_frozen(seq):
    """Not "Over the frozen releases 1 … 0 (of 2)": nothing is frozen yet, and the API's note
    and the leaderboard page's heading say so, in the reader's language."""
    user = seq.users["a"]
    for language, said in (("en", "No release is frozen yet"), ("ja", "まだ凍結した公開データ")):
        board = Client().get(
            address(seq, "round-standings"), HTTP_ACCEPT_LANGUAGE=language, **bearer(user)
        )
        assert said in board.json()["note"] and "1 … 0" not in board.json()["note"]
    client = Client()
    client.force_login(user)
    page = client.get(
        reverse("sequential:leaderboard", args=[seq.competition.slug, seq.round.slug]),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    heading = page.content.decode().split("<h2>", 1)[1].split("</h2>", 1)[0]
    assert "1 … 0" not in heading and "no release is frozen yet" in heading, heading


def test_the_sequential_standings_in_the_attack_phase_carry_the_ranking_number(db):
    """In the attack phase the leaderboard page ranks by safety and shows it beside the
    validity; the API's table (and `pwscup leaderboard`) carried every column but that one."""
    from pwscup.sequential import selectors

    world = attack_phase_world(slug="seqapisafe")
    board = Client().get(address(world, "round-standings"), **bearer(world.users["a"]))
    [table] = board.json()["tables"]
    assert table["columns"][:4] == ["Rank", "Team", "Validity", "Safety"], table["columns"]
    rows = selectors.leaderboard_rows(sequential=world.sequential)
    shown = {row[1]: row[3] for row in table["rows_text"]}
    assert shown == {row.team.name: f"{row.safety:.4f}" for row in rows}, shown
    assert {row[1]: row[3] for row in table["rows"]} == {row.team.name: row.safety for row in rows}
