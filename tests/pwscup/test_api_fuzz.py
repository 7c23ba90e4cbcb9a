"""Schemathesis against the live server for the DP and the sequential kinds (the 2015 game's
run is tests/pwscup/test_api_schema.py): every operation of each kind, and the round status
and standings every kind answers, with a team's token in a populated round of that kind.
No answer is a 5xx, and every answer is as the schema documents it (status, content type,
body); the runs reach real objects (each GET answers 200 at least once)."""

import pytest
import schemathesis
from django.test import Client

from pwscup.api.services import api_token_create
from pwscup.dp import services as dp_services
from pwscup.sequential.models import Release, SeqAttack, SeqTarget
from tests.pwscup.api_fuzz import fuzz, view_module
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.seq_web_world import (
    attack,
    attack_phase_world,
)

GUESSES = b"pid,guess\nBob,dyspepsia\nAlice,dyspepsia\nAndy,dyspepsia\nDavid,\nEmily,dyspepsia\n"


@pytest.fixture
def api_schema(live_server):
    return schemathesis.openapi.from_url(f"{live_server.url}/api/schema/?format=json")


def operations_of(schema, world, kind_module: str) -> list:
    """The kind's own operations, and the round operations of every kind (status,
    standings), addressed to ``world``'s round."""
    known = {"competition_slug": world.competition.slug, "round_slug": world.round.slug}
    chosen = []
    for result in schema.get_all_operations():
        operation = result.ok()
        module = view_module(operation.path, known)
        generic_round = module.startswith("pwscup.api.views") and "{round_slug}" in operation.path
        if module.startswith(kind_module) or generic_round:
            chosen.append(operation)
    return chosen


def assert_conforms(failures: dict, statuses: dict, *, never_200: set):
    assert not failures, "\n\n".join(f"{label}: {error}" for label, error in failures.items())
    for label, codes in statuses.items():
        print(label, sorted(set(codes)))
        if label.startswith("GET ") and label not in never_200:
            assert 200 in codes, f"{label} never answered 200: {sorted(set(codes))}"


def test_the_dp_api_answers_match_the_schema(transactional_db, live_server, api_schema):
    world = build_dp_world(slug="fuzzdp")
    team, user = world.teams["a"], world.users["a"]
    common = {"dp_round": world.dp_round, "team": team, "user": user}
    release = dp_services.dp_release_request(
        **common,
        level="eps-4",
        payload={"groups": [{"attributes": ["gender", "age"], "epsilon": "1"}]},
    )
    dp_services.dp_query_answer(
        **common,
        level="eps-4",
        payload={"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"},
    )
    estimate = dp_services.dp_estimate_from_release(
        **common, level="eps-4", charge_no=release.charge.number, estimator="BT"
    )
    real = {
        "competition_slug": world.competition.slug,
        "round_slug": world.round.slug,
        "level": "eps-4",
        "number": release.charge.number,
        "id": estimate.pk,
    }
    operations = operations_of(api_schema, world, "pwscup.dp")
    assert len(operations) >= 9
    failures, statuses = fuzz(
        operations,
        real_for=lambda operation: real,
        base_url=live_server.url,
        token=api_token_create(user=user, name="schemathesis").secret,
    )
    # Scores are shown after the close only: before it, both answer 404 ``not_closed``.
    closed_only = {
        "GET /api/v1/competitions/{competition_slug}/rounds/{round_slug}/dp/leaderboard/",
        "GET /api/v1/competitions/{competition_slug}/rounds/{round_slug}/standings/",
    }
    assert_conforms(failures, statuses, never_200=closed_only)


def test_the_sequential_api_answers_match_the_schema(transactional_db, live_server, api_schema):
    # The attack phase: both teams' releases frozen, team B attacks team A's.
    world = attack_phase_world(slug="fuzzseq")
    target = SeqTarget.objects.get(sequential=world.sequential, team=world.teams["a"])
    attack(world, "b", target, GUESSES)
    base = {
        "competition_slug": world.competition.slug,
        "round_slug": world.round.slug,
        "team_slug": "teamA",
        "filename": "teamA_release_2.csv",
        "step": 1,
    }
    release_id = Release.objects.filter(team=world.teams["b"]).latest("pk").pk
    attack_id = SeqAttack.objects.filter(team=world.teams["b"]).latest("pk").pk

    def real_for(operation):
        return {**base, "id": attack_id if "/seq/attacks/" in operation.path else release_id}

    operations = operations_of(api_schema, world, "pwscup.sequential")
    assert len(operations) >= 12
    failures, statuses = fuzz(
        operations,
        real_for=real_for,
        base_url=live_server.url,
        token=api_token_create(user=world.users["b"], name="schemathesis").secret,
    )
    assert_conforms(failures, statuses, never_200=set())


def schema_body(schema: dict, node: dict) -> dict:
    """``node`` with its ``$ref`` followed."""
    ref = node.get("$ref")
    return schema["components"]["schemas"][ref.rsplit("/", 1)[1]] if ref else node


def test_the_dp_schema_names_required_fields_and_the_csv_download(db):
    schema = Client().get("/api/schema/?format=json").json()
    level = "/api/v1/competitions/{competition_slug}/rounds/{round_slug}/dp/levels/{level}/"
    body = {
        name: schema["paths"][level + name]["post"]["requestBody"]["content"]
        for name in ("queries/", "releases/", "estimates/")
    }
    # A query is one of three shapes, each with what the service requires of it.
    query = schema_body(schema, body["queries/"]["application/json"]["schema"])
    assert [sorted(schema_body(schema, one)["required"]) for one in query["oneOf"]] == [
        ["attributes", "epsilon"],
        ["epsilon", "type", "where"],
        ["column", "epsilon", "type"],
    ]
    release = schema_body(schema, body["releases/"]["application/json"]["schema"])
    assert release["required"] == ["groups"]
    group = schema_body(schema, release["properties"]["groups"]["items"])
    assert group["required"] == ["attributes"]
    upload = schema_body(schema, body["estimates/"]["multipart/form-data"]["schema"])
    assert upload["required"] == ["file"]
    built = schema_body(schema, body["estimates/"]["application/json"]["schema"])
    assert [schema_body(schema, one)["required"] for one in built["oneOf"]] == [
        ["from_release"],
        ["from_answer"],
    ]
    download = schema["paths"][level + "releases/{number}/release.csv"]["get"]["responses"]
    assert list(download["200"]["content"]) == ["text/csv"]
    assert download["200"]["content"]["text/csv"]["schema"]["format"] == "binary"
