"""The synthetic round through the REST API, the way the ``pwscup`` client plays it: the
status gives the upload's address, the upload is kept (202) and scored by its job, the
answer's address gives the scores; the members table is the team's own; past a deadline
the API refuses with 403; a bad file's message names column, row and value in the reader's
language; in the attack phase the targets' files and the attack upload, scored on the dev
half."""

import datetime as dt
import io

import pandas as pd
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from pwscup.accounts.services import user_create
from pwscup.api.services import api_token_create
from pwscup.competitions.models import Phase
from pwscup.submissions.round_api import score_text
from pwscup.synthetic import kit, selectors, services
from pwscup.synthetic.api import files
from pwscup.synthetic.models import SynAttack, SynRelease, TeamDraw
from tests.pwscup.syn_world import (
    ROLES,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db


def bearer(user, **extra) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}", **extra}


def address(world, name: str, *extra) -> str:
    return reverse(f"api:{name}", args=[world.competition.slug, world.round.slug, *extra])


def status_of(world, user) -> dict:
    response = Client().get(address(world, "round-status"), **bearer(user))
    assert response.status_code == 200, response.content
    return response.json()


def run_jobs() -> None:
    for pk in SynRelease.objects.filter(status="queued").values_list("pk", flat=True):
        services.release_score(release_id=pk)
    for pk in SynAttack.objects.filter(status="queued").values_list("pk", flat=True):
        services.attack_score(attack_id=pk)


def test_syn_api_release_round_trip_from_the_status_to_the_scores():
    world = syn_world(slug="synapi1", letters="ab")
    user = world.users["a"]
    status = status_of(world, user)
    assert status["kind"] == "synthetic" and status["team"]["slug"] == "teamA"
    (kind,) = status["submission_types"]
    assert (kind["key"], kind["open"], kind["fields"]) == ("release", True, [])
    members, population, config = status["downloads"]
    assert [d["name"] for d in status["downloads"]] == [
        "teamA_train.csv",
        "population.json",
        "config.json",
    ]
    # The members table is the team's own T_X.
    client, headers = Client(), bearer(user)
    table = client.get(members["url"], **headers)
    assert table.status_code == 200
    draw = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams["a"])
    assert table.content == files.members_csv(synthetic=world.synthetic, draw=draw).encode()
    # What the kit's commands read, as the kit holds them (its draw's population).
    kit_files = {
        f.name: f.content for f in kit.kit_files(synthetic=world.synthetic, team=world.teams["a"])
    }
    for download in (population, config):
        answer = client.get(download["url"], **headers)
        assert answer.status_code == 200 and answer["Content-Type"] == "application/json"
        assert answer.content.decode() == kit_files[download["name"]]
    # Neither is a visitor's: 401 without a token.
    assert Client().get(population["url"]).status_code == 401
    assert len(pd.read_csv(io.BytesIO(table.content))) == len(draw.members)
    # Upload at the address the status gives: kept, queued, then scored by the job.
    content = baseline_release(world, "a")
    answer = client.post(
        kind["url"], {"file": SimpleUploadedFile("teamA_synthetic.csv", content)}, **headers
    )
    assert answer.status_code == 202, answer.content
    body = answer.json()
    assert (body["number"], body["status"], body["scores"]) == (1, "queued", {})
    run_jobs()
    scored = client.get(body["url"], **headers).json()
    kept = SynRelease.objects.get(pk=body["id"])
    assert scored["status"] == "finished", scored["message"]
    assert scored["scores"]["u_ml"] == pytest.approx(kept.scores["u_ml"])
    assert set(scored["scores"]) == {
        "u_ml",
        "u_1",
        "u_2",
        "r_copy",
        "r_copy_holdout",
        "dcr_5_train",
        "dcr_5_holdout",
    }
    assert scored["scores_text"]["u_1"] == f"{kept.scores['u_1']:.4f}"
    assert scored["final"] is True  # the last valid release counts until one is selected
    (listed,) = status_of(world, user)["uploads"]
    assert (listed["id"], listed["status"]) == (kept.pk, "finished")
    # A second release, then the first one selected as final through the API.
    second = client.post(
        kind["url"], {"file": SimpleUploadedFile("again.csv", content + b"\n")}, **headers
    ).json()
    run_jobs()
    assert [u["final"] for u in status_of(world, user)["uploads"]] == [True, False]
    chosen = client.post(scored["select_url"], **headers)
    assert chosen.status_code == 200 and chosen.json()["final"] is True
    assert [u["id"] for u in status_of(world, user)["uploads"] if u["final"]] == [kept.pk]
    # Another team sees neither the release nor its members table.
    other = bearer(world.users["b"])
    assert client.get(body["url"], **other).status_code == 404
    assert client.get(second["url"], **other).status_code == 404
    assert client.post(scored["select_url"], **other).status_code == 404
    theirs = client.get(members["url"], **other)
    assert theirs.status_code == 200 and theirs.content != table.content
    assert status_of(world, world.users["b"])["uploads"] == []


def test_syn_api_refuses_past_the_deadlines_with_403():
    world = syn_world(slug="synapi2", letters="ab")
    client, headers = Client(), bearer(world.users["a"], HTTP_ACCEPT_LANGUAGE="en")
    url = status_of(world, world.users["a"])["submission_types"][0]["url"]
    now = timezone.now()
    Phase.objects.filter(round=world.round, kind="release").update(
        opens_at=now - dt.timedelta(days=2), closes_at=now - dt.timedelta(minutes=1)
    )
    late = client.post(
        url, {"file": SimpleUploadedFile("late.csv", baseline_release(world, "a"))}, **headers
    )
    assert late.status_code == 403, late.content
    assert late.json()["code"] == "forbidden" and "closed" in late.json()["message"]
    assert not SynRelease.objects.filter(team=world.teams["a"]).exists()
    (kind,) = status_of(world, world.users["a"])["submission_types"]
    assert kind["open"] is False
    # The attack phase past its close: 403 too.
    Phase.objects.filter(round=world.round, kind="release").update(
        opens_at=now - dt.timedelta(days=2), closes_at=now + dt.timedelta(days=1)
    )
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    targets = freeze(world)
    Phase.objects.filter(round=world.round, kind=Phase.Kind.ATTACK).update(
        opens_at=now - dt.timedelta(days=1), closes_at=now - dt.timedelta(minutes=1)
    )
    answer = dcr_answer_bytes(world, targets["teamB"])
    attack_type = status_of(world, world.users["a"])["submission_types"][1]
    assert attack_type["key"] == "attack" and attack_type["open"] is False
    refused = client.post(
        attack_type["url"],
        {"file": SimpleUploadedFile("mia.csv", answer), "target": "teamB"},
        **headers,
    )
    assert refused.status_code == 403, refused.content
    assert not SynAttack.objects.exists()


def test_syn_api_a_bad_release_is_failed_with_a_message_in_the_readers_language():
    world = syn_world(slug="synapi3", letters="a")
    client = Client()
    url = address(world, "syn-releases")
    bad = baseline_release(world, "a").replace(b",Male,", b",Mle,", 1)
    body = client.post(
        url, {"file": SimpleUploadedFile("bad.csv", bad)}, **bearer(world.users["a"])
    ).json()
    run_jobs()
    english = client.get(body["url"], **bearer(world.users["a"], HTTP_ACCEPT_LANGUAGE="en"))
    japanese = client.get(body["url"], **bearer(world.users["a"], HTTP_ACCEPT_LANGUAGE="ja"))
    assert english.json()["status"] == "failed" and english.json()["scores"] == {}
    message = english.json()["message"]
    assert "sex" in message and "Mle" in message and "row" in message
    assert "列" in japanese.json()["message"] and "Mle" in japanese.json()["message"]
    # A file that is not a release at all: refused by the job, not by a 500.
    other = client.post(
        url,
        {"file": SimpleUploadedFile("x.csv", b"\xff\xfe\x00garbage")},
        **bearer(world.users["a"]),
    )
    assert other.status_code == 202
    run_jobs()
    assert client.get(other.json()["url"], **bearer(world.users["a"])).json()["status"] == "failed"
    # A refusal of the API itself in Japanese: no standings before publication.
    standings = client.get(
        address(world, "round-standings"), **bearer(world.users["a"], HTTP_ACCEPT_LANGUAGE="ja")
    )
    assert standings.status_code == 404 and "公開" in standings.json()["message"]


def test_syn_api_attack_phase_targets_files_and_an_attack_scored_on_the_dev_half():
    world = syn_world(slug="synapi4")
    for letter in "abc":
        release(world, letter, baseline_release(world, letter))
    client, headers = Client(), bearer(world.users["b"])
    assert client.get(address(world, "syn-targets"), **headers).status_code == 404
    targets = freeze(world)
    open_attack_phase(world)
    status = status_of(world, world.users["b"])
    release_type, attack_type = status["submission_types"]
    assert release_type["open"] is False and attack_type["open"] is True
    # A team chooses its final release; an attack's ``final`` is no choice of its own.
    assert release_type["selectable"] is True and attack_type["selectable"] is False
    (target_field,) = attack_type["fields"]
    assert target_field["choices"] == ["teamA", "teamC"]  # never the team's own release
    names = [d["name"] for d in status["downloads"]]
    assert names == [
        "teamB_train.csv",
        "population.json",
        "config.json",
        "teamA_synthetic.csv",
        "teamA_challenge.csv",
        "teamC_synthetic.csv",
        "teamC_challenge.csv",
        "aux.csv",
    ]
    listed = client.get(address(world, "syn-targets"), **headers).json()
    assert [t["team"]["slug"] for t in listed] == ["teamA", "teamC"]
    assert set(listed[0]["builtin"]) == {"dcr", "density", "null"} and listed[0]["half"] == "dev"
    assert listed[0]["builtin"]["dcr"] == targets["teamA"].builtin["dcr"]["dev"]
    # The challenge set: id and the original's columns, no label.
    challenge = client.get(listed[0]["challenge_url"], **headers)
    frame = pd.read_csv(io.BytesIO(challenge.content))
    assert list(frame.columns) == ["id", *ROLES] and list(frame["id"]) == list(range(1, 81))
    published = client.get(listed[0]["release_url"], **headers)
    with targets["teamA"].release.file.open("rb") as handle:
        assert published.content == handle.read()
    aux = pd.read_csv(io.BytesIO(client.get(listed[0]["aux_url"], **headers).content))
    assert list(aux.columns) == list(ROLES) and len(aux) == 300
    # An attack at the address the status gives, on a target it names.
    answer = client.post(
        attack_type["url"],
        {
            "file": SimpleUploadedFile("mia.csv", dcr_answer_bytes(world, targets["teamA"])),
            "target": "teamA",
        },
        **headers,
    )
    assert answer.status_code == 202, answer.content
    run_jobs()
    scored = client.get(answer.json()["url"], **headers).json()
    kept = SynAttack.objects.get(pk=scored["id"])
    assert scored["status"] == "finished" and scored["half"] == "dev" and scored["final"]
    assert scored["scores"] == kept.dev and scored["about"] == "Team A"
    assert client.get(answer.json()["url"], **bearer(world.users["a"])).status_code == 404
    # The standings say what the Results tab shows: the provisional rankings on the dev half,
    # to the teams and the organizers; to nobody else before publication.
    standings = client.get(address(world, "round-standings"), **headers)
    assert standings.status_code == 200, standings.content
    assert standings.json()["note"].startswith("Provisional, on the dev half")
    dev = selectors.round_results(synthetic=world.synthetic, half="dev").attacks
    (row,) = [r for r in standings.json()["tables"][1]["rows"] if r[1] == "Team B"]
    (text,) = [r for r in standings.json()["tables"][1]["rows_text"] if r[1] == "Team B"]
    (mine,) = [r for r in dev if r["team"].slug == "teamB"]
    assert row[2] == mine["mean"] and row[3] == mine["attacked"] == 1
    assert text[2] == score_text(mine["mean"])
    assert (
        client.get(address(world, "round-standings"), **bearer(world.organizer)).status_code == 200
    )
    outsider = user_create(username="synapi4-outsider", password="pw-outsider-1")
    refused = client.get(address(world, "round-standings"), **bearer(outsider))
    assert refused.status_code == 404 and "freeze" in refused.json()["message"]
    # Not on its own release, not on a team with no target.
    own = client.post(
        attack_type["url"],
        {"file": SimpleUploadedFile("mia.csv", b"id,score\n"), "target": "teamB"},
        **headers,
    )
    assert own.status_code == 403 and own.json()["code"] == "forbidden"
    nobody = client.post(
        attack_type["url"],
        {"file": SimpleUploadedFile("mia.csv", b"id,score\n"), "target": "teamZ"},
        **headers,
    )
    # The 404 names the team that has no target and the ones it may name, in the reader's
    # language.
    assert nobody.status_code == 404 and nobody.json() == {
        "code": "not_found",
        "message": "No published target of the team teamZ. Name one of: teamA, teamC.",
    }
    nobody_ja = client.post(
        attack_type["url"],
        {"file": SimpleUploadedFile("mia.csv", b"id,score\n"), "target": "teamZ"},
        **headers,
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert nobody_ja.json()["message"] == (
        "チーム teamZ の公開された攻撃対象はありません。指定できるのは teamA, teamC です。"
    )
    # A visitor gets no target file.
    assert Client().get(listed[0]["challenge_url"]).status_code in (401, 403, 404)
