"""The DP round over the REST API (pwscup/dp/api/views.py): token-authenticated queries with 409
refusals, the ledger, releases, estimates, and the leaderboard only after the close."""

import csv
import io
import json

import pytest
from django.test import Client, override_settings
from django.urls import reverse

from pwscup.api.services import api_token_create
from tests.pwscup.dp_world import TOY_Z, build_dp_world, close_now


@pytest.fixture
def world(db):
    return build_dp_world(slug="dpapi")


def bearer(user) -> dict:
    return {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=user, name='t').secret}"}


def api(world, name, **kwargs):
    return reverse(
        f"api:{name}",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            **kwargs,
        },
    )


def post(client, address, payload, headers, **extra):
    return client.post(
        address, json.dumps(payload), content_type="application/json", **headers, **extra
    )


def test_queries_ledger_and_refusal_over_the_api(world):
    client, headers = Client(), bearer(world.users["a"])
    address = api(world, "dp-queries", level="eps-1")
    reply = post(
        client,
        address,
        {
            "type": "histogram",
            "attributes": ["age", "gender"],
            "epsilon": "0.75",
            "request_id": "r1",
        },
        headers,
    )
    assert reply.status_code == 200
    body = reply.json()
    assert body["attributes"] == ["gender", "age"] and body["remaining"] == "0.25"
    again = post(
        client,
        address,
        {
            "type": "histogram",
            "attributes": ["gender", "age"],
            "epsilon": "0.75",
            "request_id": "r1",
        },
        headers,
    )
    assert again.json()["replayed"] is True and again.json()["answer"] == body["answer"]
    refused = post(
        client, address, {"type": "count", "where": {"gender": "F"}, "epsilon": "1/3"}, headers
    )
    assert refused.status_code == 409 and refused.json()["code"] == "budget_refused"
    assert "only 0.25" in refused.json()["message"]
    ja = post(
        client,
        address,
        {"type": "count", "where": {"gender": "F"}, "epsilon": "1/3"},
        headers,
        HTTP_ACCEPT_LANGUAGE="ja",
    )
    assert ja.json()["message"].startswith("拒否:")
    invalid = post(
        client, address, {"type": "count", "where": {"age": "26"}, "epsilon": "0.1"}, headers
    )
    # A value the round's domain does not have: 404, as for a name the schema cannot list.
    assert invalid.status_code == 404 and invalid.json()["code"] == "not_found"
    assert invalid.json()["message"] == "Count condition age='26' is not in the domain of 'age'"
    ledger = client.get(api(world, "dp-ledger", level="eps-1"), **headers).json()
    assert ledger["spent"] == "0.75" and len(ledger["charges"]) == 1
    other = client.get(api(world, "dp-ledger", level="eps-1"), **bearer(world.users["b"])).json()
    assert other["charges"] == []  # another team's ledger is its own
    assert Client().post(address, "{}", content_type="application/json").status_code == 401


def test_release_estimate_and_leaderboard_over_the_api(world):
    client, headers = Client(), bearer(world.users["a"])
    release = post(
        client,
        api(world, "dp-releases", level="eps-4"),
        {"groups": [{"attributes": ["gender", "age"], "epsilon": "4"}]},
        headers,
    )
    assert release.status_code == 200 and release.json()["epsilon"] == "4"
    number = release.json()["charge_no"]
    csv_file = client.get(api(world, "dp-release-file", level="eps-4", number=number), **headers)
    assert b"".join(csv_file.streaming_content).startswith(b"gender,age\n")
    assert (
        client.get(
            api(world, "dp-release-file", level="eps-4", number=number), **bearer(world.users["b"])
        ).status_code
        == 404
    )
    built = post(
        client,
        api(world, "dp-level-estimates", level="eps-4"),
        {"from_release": number, "estimator": "BR"},
        headers,
    )
    assert built.status_code == 201 and built.json()["method"] == "BR"
    assert "score" not in json.dumps(built.json())
    lines = (
        ["target,gender,age,count"]
        + [
            f"gender_age,{g},{a},{v}"
            for (g, a), v in zip(
                [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")], TOY_Z, strict=True
            )
        ]
        + ["gender,F,,4", "gender,M,,6"]
    )
    from django.core.files.uploadedfile import SimpleUploadedFile

    upload = client.post(
        api(world, "dp-level-estimates", level="eps-1"),
        {"file": SimpleUploadedFile("estimate.csv", ("\n".join(lines) + "\n").encode())},
        **bearer(world.users["b"]),
    )
    # Kept and queued: a worker checks it (202), never the request.
    assert upload.status_code == 202 and upload.json()["status"] == "queued"
    bad = client.post(
        api(world, "dp-level-estimates", level="eps-1"),
        {"file": SimpleUploadedFile("estimate.csv", b"target,gender,count\n")},
        **bearer(world.users["b"]),
    )
    assert bad.status_code == 202 and bad.json()["number"] == upload.json()["number"] + 1
    from pwscup.dp.models import Estimate
    from pwscup.dp.services import dp_estimates_build_queued

    assert dp_estimates_build_queued(dp_round=world.dp_round) == 2  # what the worker runs
    assert Estimate.objects.get(pk=upload.json()["id"]).status == "finished"
    failed = Estimate.objects.get(pk=bad.json()["id"])
    assert failed.status == "failed" and failed.message == (
        "estimate.csv: the header must be target,gender,age,count; missing column(s): 'age'"
    )
    # Checked, not scored: the answer says when it will be (``pwscup submit --wait`` printed
    # only "no score to show yet").
    checked = client.get(upload.json()["url"], **bearer(world.users["b"])).json()
    assert checked["scores"] == {}
    assert checked["remark"] == "Format checked; scored when the release phase closes."
    board = client.get(api(world, "dp-leaderboard"))
    assert board.status_code == 404 and board.json()["code"] == "not_closed"
    close_now(world)
    from pwscup.dp.services import dp_round_score

    dp_round_score(dp_round=world.dp_round)
    scored = client.get(upload.json()["url"], **bearer(world.users["b"])).json()
    assert scored["scores"] and scored["remark"] == ""
    board = client.get(api(world, "dp-leaderboard"), **headers).json()
    eps1 = next(level for level in board["levels"] if level["level"] == "eps-1")
    assert eps1["verified"][0]["team"] == "teamb" and eps1["verified"][0]["mean_l2"] == 0.0
    assert [row["label"] for row in eps1["baselines"]["rows"]][:2] == ["BT", "BR"]
    eps4 = next(level for level in board["levels"] if level["level"] == "eps-4")
    assert eps4["verified"][0]["method"] == "BR" and eps4["verified"][0]["epsilon_spent"] == "4"


def test_dp_endpoints_answer_404_on_a_round_of_another_kind(world):
    from tests.support import build_world

    other = build_world(slug="classicapi")
    address = reverse(
        "api:dp-queries",
        kwargs={"competition_slug": "classicapi", "round_slug": other.round.slug, "level": "eps-1"},
    )
    response = post(Client(), address, {"epsilon": "1"}, bearer(other.users["a"]))
    assert response.status_code == 404


def test_the_hidden_table_is_not_downloadable_over_the_api(world):
    address = reverse(
        "api:original",
        kwargs={"competition_slug": world.competition.slug, "round_slug": world.round.slug},
    )
    for letter in "ab":
        assert Client().get(address, **bearer(world.users[letter])).status_code == 404


def test_a_round_without_the_interactive_track_refuses_queries_on_every_entry_point(db):
    # The rule lives in the service: the API refuses as the page does, and nothing is charged.
    from tests.pwscup.dp_world import TOY_CONFIG

    world = build_dp_world(
        slug="dpbatch", config={**TOY_CONFIG, "tracks": {"interactive": False, "batch": "both"}}
    )
    query = {"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"}
    headers = bearer(world.users["a"])
    reply = post(Client(), api(world, "dp-queries", level="eps-1"), query, headers)
    assert reply.status_code == 400
    assert reply.json() == {"code": "invalid", "message": "This round has no interactive track"}
    page = Client()
    page.force_login(world.users["a"])
    address = reverse(
        "dp:query",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            "level": "eps-1",
        },
    )
    reply = post(page, address, query, {})
    assert reply.status_code == 400
    assert reply.json() == {"error": "This round has no interactive track"}
    ledger = Client().get(api(world, "dp-ledger", level="eps-1"), **headers).json()
    assert ledger["charges"] == [] and ledger["spent"] == "0"


@override_settings(TIME_ZONE="Asia/Tokyo")
def test_charge_times_carry_the_servers_offset_in_answers_and_the_ledger_csv(world):
    """A query's and a release's answer, the ledger and its CSV give ``created_at`` with the
    server's offset, as the estimates and every other answer do (not the database's UTC)."""
    client, headers = Client(), bearer(world.users["a"])
    query = post(
        client,
        api(world, "dp-queries", level="eps-1"),
        {"type": "histogram", "attributes": ["gender"], "epsilon": "0.5", "request_id": "t1"},
        headers,
    ).json()
    release = post(
        client,
        api(world, "dp-releases", level="eps-4"),
        {"groups": [{"attributes": ["gender", "age"], "epsilon": "4"}]},
        headers,
    ).json()
    ledger = client.get(api(world, "dp-ledger", level="eps-1"), **headers).json()
    times = [query["created_at"], release["created_at"], ledger["charges"][0]["created_at"]]
    assert all(t.endswith("+09:00") for t in times), times
    browser = Client()
    browser.force_login(world.users["a"])
    csv_address = reverse(
        "dp:ledger_csv",
        kwargs={
            "competition_slug": world.competition.slug,
            "round_slug": world.round.slug,
            "level": "eps-1",
        },
    )
    rows = list(csv.DictReader(io.StringIO(browser.get(csv_address).content.decode())))
    assert rows and {row["created_at"] for row in rows} == {query["created_at"]}


def test_a_null_or_too_fine_epsilon_is_refused_with_what_to_write(world):
    """``"epsilon": null`` asks for ε (never Python's ``None``); 13 decimals names the limit."""
    client, headers = Client(), bearer(world.users["a"])
    address = api(world, "dp-queries", level="eps-1")
    query = {"type": "histogram", "attributes": ["gender"]}
    null = post(client, address, {**query, "epsilon": None}, headers)
    assert null.status_code == 400 and "None" not in null.json()["message"]
    assert null.json()["message"].startswith("epsilon is missing (absent or null)")
    fine = post(client, address, {**query, "epsilon": "0.0000000000001"}, headers)
    assert fine.status_code == 400
    assert "has 13 decimals; at most 12 are allowed" in fine.json()["message"]
    ledger = client.get(api(world, "dp-ledger", level="eps-1"), **headers).json()
    assert ledger["charges"] == []


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_level_the_round_does_not_have_is_404_naming_its_levels(world, language):
    """The level is part of the address: a level the round does not have is ``not_found``
    (as an unknown attribute is), on every level endpoint, and the answer names the round's
    levels, not a bare "Not found." on the GETs and a 400 on the POSTs."""
    client = Client()
    headers = {**bearer(world.users["a"]), "HTTP_ACCEPT_LANGUAGE": language}
    said = {
        "en": "Level 'eps-9' does not exist; levels: eps-1",
        "ja": "レベル 'eps-9' はありません",
    }
    answers = [
        post(client, api(world, "dp-queries", level="eps-9"), {"type": "histogram"}, headers),
        post(client, api(world, "dp-releases", level="eps-9"), {"groups": []}, headers),
        post(client, api(world, "dp-level-estimates", level="eps-9"), {"from_answer": 1}, headers),
        client.get(api(world, "dp-ledger", level="eps-9"), **headers),
    ]
    for answer in answers:
        assert answer.status_code == 404, answer.content
        body = answer.json()
        assert body["code"] == "not_found" and said[language] in body["message"], body


def test_each_estimate_type_of_the_round_status_says_what_counts_as_every_kind_does(world):
    """docs/api.md: every submission type of the round status carries ``counts`` (empty when
    the round says nothing), the same shape for every kind."""
    status = Client().get(api(world, "round-status"), **bearer(world.users["a"])).json()
    assert status["submission_types"]
    assert all(kind.get("counts") == "" for kind in status["submission_types"])
