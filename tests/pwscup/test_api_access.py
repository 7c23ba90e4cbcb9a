"""The API answers what the pages answer: the roles × round states of the HTML access matrix
(tests/pwscup/test_access_matrix.py, its worlds and expectations) over /api/v1/, each role
with its own personal token, every body scanned for leaks."""

import json

import pytest
from django.urls import reverse

from pwscup.api.services import api_token_create
from pwscup.pwscup2015.models import Pwscup2015Round
from tests.pwscup.factories import answer_bytes, read_field, truth_of
from tests.pwscup.test_access_matrix import ROLES, STATES, body, build

pytestmark = pytest.mark.django_db

UNAUTHENTICATED = 401  # where a page sends a visitor to the log-in page (302)

# API endpoint -> the page whose answers it must give (its expectations in STATES).
SAME_AS_PAGE = {
    "original": "original",
    "submission_a_file": "submission_a",
    "submission_a": "submission_a",
    "submissions": "status",
    "attacks": "status",
    "round": "round",
    "attack_b_on_a_file": "attack_b_on_a",
    "attack_b_on_a": "attack_b_on_a",
    "target_a": "target_a",
    "candidate_a": "candidate_a",
    "leaderboard": "leaderboard",
    "matrix": "matrix",
    "final": "final",
}


def api_expected(state: str, page: str):
    codes = STATES[state][page]
    if codes is None:
        return None
    return tuple(UNAUTHENTICATED if c == 302 else c for c in codes)


def api_urls(world, sub_a, attack) -> dict:
    args = [world.competition.slug, world.round.slug]
    urls = {
        "original": reverse("api:original", args=args),
        "submission_a_file": reverse("api:submission-file", args=[*args, sub_a.pk]),
        "submission_a": reverse("api:submission", args=[*args, sub_a.pk]),
        "submissions": reverse("api:submissions", args=args),
        "attacks": reverse("api:attacks", args=args),
        "round": reverse("api:round-detail", args=args),
        "target_a": reverse("api:target-anonymized", args=[*args, "teamA"]),
        "candidate_a": reverse("api:target-candidate", args=[*args, "teamA"]),
        "leaderboard": reverse("api:leaderboard", args=args),
        "matrix": reverse("api:matrix", args=args),
        "final": reverse("api:final", args=args),
        "targets": reverse("api:targets", args=args),
        "competition": reverse("api:competition-detail", args=[world.competition.slug]),
        "competitions": reverse("api:competitions"),
    }
    if attack is not None:
        urls["attack_b_on_a_file"] = reverse("api:attack-file", args=[*args, attack.pk])
        urls["attack_b_on_a"] = reverse("api:attack", args=[*args, attack.pk])
    return urls


def fetch_all(client, users, urls) -> dict:
    tokens = {role: api_token_create(user=users[role], name="test").secret for role in users}
    results = {}
    for role in ROLES:
        headers = {} if role == "anon" else {"HTTP_AUTHORIZATION": f"Bearer {tokens[role]}"}
        for name, url in urls.items():
            response = client.get(url, **headers)
            results[(name, role)] = (response.status_code, body(response))
    return results


@pytest.mark.parametrize("state", list(STATES))
def test_api_access_matrix(state, make_world, django_user_model, client):
    world, sub_a, attack, users = build(make_world, django_user_model, state)
    urls = api_urls(world, sub_a, attack)
    results = fetch_all(client, users, urls)
    mismatches = []
    for name, page in SAME_AS_PAGE.items():
        expected = api_expected(state, page)
        if expected is None:
            assert attack is None
            continue
        for role, code in zip(ROLES, expected, strict=True):
            got = results[(name, role)][0]
            if got != code:
                mismatches.append(f"{name} as {role}: expected {code}, got {got}")
    assert not mismatches, f"state {state}:\n" + "\n".join(mismatches)

    # Files served are the stored ones; JSON answers are {code, message} when refused.
    assert results[("submission_a_file", "a")][1] == read_field(sub_a.file)
    assert results[("original", "b")][1] == world.original
    if attack is not None:
        assert results[("attack_b_on_a_file", "b")][1] == read_field(attack.file)
    if STATES[state]["target_a"][2] == 200:
        assert results[("target_a", "b")][1] == read_field(attack.target.published_file)
    for (name, role), (status, content) in results.items():
        if status >= 400:
            error = json.loads(content)
            assert set(error) >= {"code", "message"}, (name, role, error)
            assert error["message"], (name, role)

    # The lists answer what the downloads allow: B lists A's target exactly when it may
    # download it; nobody lists their own team's target.
    listed = {
        role: [t["team"]["slug"] for t in json.loads(results[("targets", role)][1])]
        for role in ROLES
        if results[("targets", role)][0] == 200
    }
    assert ("teamA" in listed.get("b", [])) == (results[("target_a", "b")][0] == 200)
    assert "teamA" not in listed.get("a", [])
    assert results[("targets", "anon")][0] == UNAUTHENTICATED

    # The scoring configuration: teams and organizers only.
    for role in ROLES:
        status, content = results[("round", role)]
        if status == 200:
            config = json.loads(content)["config"]
            assert (config is not None) == (role in ("a", "b", "org")), role

    assert_no_api_leaks(world, sub_a, attack, results, state)


def assert_no_api_leaks(world, sub_a, attack, results, state):
    args = [world.competition.slug, world.round.slug]
    truths = []
    for target in world.round.targets.all():
        truths.append(read_field(target.truth_file))
        truths.append(answer_bytes(truth_of(target)).split(b"\n", 1)[1])
    leaderboard_public = STATES[state]["leaderboard"][1] == 200
    a_u1 = json.dumps(sub_a.scores["U1"]).encode()
    for (name, role), (_status, content) in results.items():
        if role == "org":
            continue
        for secret in truths:
            assert secret not in content, f"{name} as {role} serves a truth file"
        if role != "a":
            assert sub_a.sha256.encode() not in content, f"{name} as {role}"
            assert reverse("api:submission-file", args=[*args, sub_a.pk]).encode() not in content
            if not leaderboard_public:
                assert a_u1 not in content, f"{name} as {role} shows A's unpublished U1"
        if attack is not None and role != "b":
            assert reverse("api:attack-file", args=[*args, attack.pk]).encode() not in content


def test_per_team_mode_api_serves_a_team_its_own_sample_only(make_world, client):
    from tests.pwscup.factories import freeze, scored, team_original

    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    sample = {letter: team_original(world, letter) for letter in "abc"}
    scored(world, "a", seed=1, delete=2)
    scored(world, "b", seed=2, delete=2)
    targets = freeze(world)
    args = [world.competition.slug, world.round.slug]
    token = api_token_create(user=world.users["a"], name="t").secret
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    original = client.get(reverse("api:original", args=args), **auth)
    assert body(original) == sample["a"]
    assert "teamA_original.csv" in original["Content-Disposition"]
    listed = client.get(reverse("api:targets", args=args), **auth).json()
    assert [t["team"]["slug"] for t in listed] == ["teamB"]
    assert listed[0]["candidate_url"] == reverse("api:target-candidate", args=[*args, "teamB"])
    candidate = client.get(listed[0]["candidate_url"], **auth)
    assert body(candidate) == read_field(targets["b"].candidate_file)
    own = client.get(reverse("api:target-candidate", args=[*args, "teamA"]), **auth)
    assert own.status_code == 404
    for url in (
        reverse("api:round-detail", args=args),
        reverse("api:submissions", args=args),
        reverse("api:targets", args=args),
        reverse("api:original", args=args),
        listed[0]["candidate_url"],
    ):
        content = body(client.get(url, **auth))
        assert sample["b"] not in content and sample["c"] not in content, url
        for target in targets.values():
            assert read_field(target.truth_file) not in content, url


def test_a_round_of_another_kind_is_not_found_on_the_first_kinds_endpoints(world, client):
    from pwscup.competitions.models import Round

    token = api_token_create(user=world.organizer, name="t").secret
    auth = {"HTTP_AUTHORIZATION": f"Bearer {token}"}
    args = [world.competition.slug, world.round.slug]
    assert client.get(reverse("api:round-detail", args=args), **auth).status_code == 200
    Round.objects.filter(pk=world.round.pk).update(kind="sequential")
    for name in ("api:round-detail", "api:submissions", "api:leaderboard", "api:final"):
        assert client.get(reverse(name, args=args), **auth).status_code == 404, name
    listed = client.get(reverse("api:competition-detail", args=[world.competition.slug]), **auth)
    assert listed.json()["rounds"][0]["kind"] == "sequential"
