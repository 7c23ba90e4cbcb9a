"""Who may fetch what: every URL that serves a file or a score × role × round state.

Roles: a visitor (``anon``), the owning team ``a``, another team ``b`` (the attacker of A),
a logged-in account in no team (``outsider``) and the organizer (``org``).
"""

import pytest
from django.urls import reverse

from pwscup.competitions.models import Competition, Phase
from pwscup.competitions.services import phase_set
from pwscup.kinds.tabs import RESULTS, SUBMIT, TABS, tab_url
from pwscup.pwscup2015.models import Pwscup2015Round, TeamDataset
from tests.pwscup.factories import (
    answer_bytes,
    freeze,
    read_field,
    scored,
    scored_attack,
    team_original,
    truth_of,
)

pytestmark = pytest.mark.django_db
TABS_KEYS = [key for key, _label in TABS]

ROLES = ("anon", "a", "b", "outsider", "org")
LOGIN = 302  # login_required sends a visitor to the login page
ROUND_TABS = ("round", "data", "rules", "submit", "results", "fragment", "results_fragment")

# Expected status per role (anon, a, b, outsider, org). ``None``: the URL does not exist yet.
ALWAYS = {
    "original": (LOGIN, 200, 200, 404, 200),
    "submission_a": (LOGIN, 200, 404, 404, 200),
    "status": (LOGIN, 200, 200, 404, 404),
    # The round page's five tabs, and the jobs fragment Submit and Results poll.
    **dict.fromkeys(ROUND_TABS, (200, 200, 200, 200, 200)),
    # The sample submission: whoever may download the data (a team's own, in per-team mode).
    "sample": (LOGIN, 200, 200, 404, 200),
    # The scoring configuration (column roles, no data): teams of the round and organizers.
    "config": (LOGIN, 200, 200, 404, 200),
    # The starter kit (data, configuration, scripts; targets once the attack phase opens).
    "kit": (LOGIN, 200, 200, 404, 200),
    # A note is written by its own team only (organizers do not edit teams' notes).
    "note_a": (LOGIN, 200, 404, 404, 404),
    # Shared mode has no candidate table: nobody gets one.
    "candidate_a": (LOGIN, 404, 404, 404, 404),
    # The progress of freeze / rescore / publish: the organizers' only.
    "operations": (404, 404, 404, 404, 200),
    # The live status's polls: a team's own jobs, the round's (the console's) for organizers.
    "live_team": (404, 200, 200, 404, 404),
    "live_round": (404, 404, 404, 404, 200),
}
# Before the organizer makes it public, other teams' scores are for organizers only
# (competition.md: a team never sees another team's scores before they are published).
LEADERBOARD_PRIVATE = (404, 403, 403, 403, 200)
RESULTS_HIDDEN = (404, 403, 403, 403, 200)
EVERYONE = (200, 200, 200, 200, 200)
RESULT_URLS = ("matrix", "matrix_csv", "final", "final_anonymization_csv", "final_attack_csv")

STATES = {
    # Anonymization phase running, nothing frozen, leaderboard private, results hidden.
    "open": dict(
        ALWAYS,
        attack_b_on_a=None,
        target_a=(LOGIN, 404, 404, 404, 404),
        leaderboard=LEADERBOARD_PRIVATE,
        leaderboard_csv=LEADERBOARD_PRIVATE,
        **dict.fromkeys(RESULT_URLS, RESULTS_HIDDEN),
    ),
    "open_public_leaderboard": dict(
        ALWAYS,
        attack_b_on_a=None,
        target_a=(LOGIN, 404, 404, 404, 404),
        leaderboard=EVERYONE,
        leaderboard_csv=EVERYONE,
        **dict.fromkeys(RESULT_URLS, RESULTS_HIDDEN),
    ),
    # Frozen, attack phase open: B downloads A's target; A never gets its own from there.
    "frozen": dict(
        ALWAYS,
        attack_b_on_a=(LOGIN, 404, 200, 404, 200),
        target_a=(LOGIN, 404, 200, 404, 200),
        leaderboard=LEADERBOARD_PRIVATE,
        leaderboard_csv=LEADERBOARD_PRIVATE,
        **dict.fromkeys(RESULT_URLS, RESULTS_HIDDEN),
    ),
    # Frozen, but the attack phase has not opened: targets are not served to teams yet.
    "frozen_attack_upcoming": dict(
        ALWAYS,
        attack_b_on_a=(LOGIN, 404, 200, 404, 200),
        target_a=(LOGIN, 404, 404, 404, 200),
        leaderboard=LEADERBOARD_PRIVATE,
        leaderboard_csv=LEADERBOARD_PRIVATE,
        **dict.fromkeys(RESULT_URLS, RESULTS_HIDDEN),
    ),
    "published": dict(
        ALWAYS,
        attack_b_on_a=(LOGIN, 404, 200, 404, 200),
        target_a=(LOGIN, 404, 200, 404, 200),
        leaderboard=EVERYONE,
        leaderboard_csv=EVERYONE,
        **dict.fromkeys(RESULT_URLS, EVERYONE),
    ),
    # An unlisted competition does not exist for visitors and outsiders, published or not.
    "unlisted_published": dict(
        ALWAYS,
        **dict.fromkeys(ROUND_TABS, (404, 200, 200, 404, 200)),
        attack_b_on_a=(LOGIN, 404, 200, 404, 200),
        target_a=(LOGIN, 404, 200, 404, 200),
        leaderboard=(404, 200, 200, 404, 200),
        leaderboard_csv=(404, 200, 200, 404, 200),
        **dict.fromkeys(RESULT_URLS, (404, 200, 200, 404, 200)),
    ),
}


def build(make_world, django_user_model, state: str):
    world = make_world()
    sub_a = scored(world, "a", seed=1, delete=4)
    scored(world, "b", seed=2)
    attack = None
    if state != "open" and state != "open_public_leaderboard":
        targets = freeze(world)
        truth = truth_of(targets["a"])
        half = truth.copy()
        half[len(half) // 2 :] = 0
        attack = scored_attack(world, "b", targets["a"], half)
    if state in ("open_public_leaderboard", "published", "unlisted_published"):
        world.anonymization.leaderboard_public = True
        world.anonymization.save()
    if state in ("published", "unlisted_published"):
        Pwscup2015Round.objects.filter(round=world.round).update(results_published=True)
    if state == "unlisted_published":
        Competition.objects.filter(pk=world.competition.pk).update(is_listed=False)
    if state == "frozen_attack_upcoming":
        phase_set(
            round=world.round,
            kind=Phase.Kind.ATTACK,
            opens_at=world.attack.closes_at,
            closes_at=world.attack.closes_at + (world.attack.closes_at - world.attack.opens_at),
        )
    outsider = django_user_model.objects.create_user("outsider", password="pw")
    users = {"a": world.users["a"], "b": world.users["b"], "outsider": outsider}
    users["org"] = world.organizer
    return world, sub_a, attack, users


def urls(world, sub_a, attack) -> dict:
    args = [world.competition.slug, world.round.slug]
    target = args + ["teamA"]
    result = {
        "original": reverse("original_download", args=args),
        "submission_a": reverse("submission_file", args=[sub_a.pk]),
        "status": reverse("status_json", args=args),
        "operations": reverse("operations_json", args=args),
        "live_team": reverse("live_team", args=args),
        "live_round": reverse("live_round", args=args),
        "round": reverse("round_detail", args=args),
        **{tab: tab_url(world.round, tab) for tab in ("data", "rules", "submit", "results")},
        "sample": reverse("sample_download", args=args),
        "config": reverse("config_download", args=args),
        "kit": reverse("kit_download", args=args),
        "note_a": reverse("submission_note", args=[sub_a.pk]),
        "fragment": tab_url(world.round, SUBMIT) + "?fragment=1",
        "results_fragment": tab_url(world.round, RESULTS) + "?fragment=1",
        "target_a": reverse("target_download", args=target),
        "candidate_a": reverse("candidate_download", args=target),
        "leaderboard": reverse("leaderboard", args=args),
        "leaderboard_csv": reverse("leaderboard", args=args) + "?format=csv",
        "matrix": reverse("matrix", args=args),
        "matrix_csv": reverse("matrix", args=args) + "?format=csv",
        "final": reverse("final_ranking", args=args),
        "final_anonymization_csv": reverse("final_ranking", args=args)
        + "?format=anonymization-csv",
        "final_attack_csv": reverse("final_ranking", args=args) + "?format=attack-csv",
    }
    if attack is not None:
        result["attack_b_on_a"] = reverse("attack_file", args=[attack.pk])
    return result


def body(response) -> bytes:
    if getattr(response, "streaming", False):
        return b"".join(response.streaming_content)
    return response.content


def fetch_all(client, users, world, sub_a, attack):
    """{(url name, role): (status, body)} for every URL and role."""
    results = {}
    for role in ROLES:
        client.logout()
        if role != "anon":
            client.force_login(users[role])
        for name, url in urls(world, sub_a, attack).items():
            response = client.get(url)
            # An error page may echo the requested path: that is not a leak.
            content = body(response).replace(url.encode(), b"")
            results[(name, role)] = (response.status_code, content)
    return results


@pytest.mark.parametrize("state", list(STATES))
def test_access_matrix(state, make_world, django_user_model, client):
    world, sub_a, attack, users = build(make_world, django_user_model, state)
    results = fetch_all(client, users, world, sub_a, attack)
    expected = STATES[state]
    mismatches = []
    for name, codes in expected.items():
        if codes is None:
            assert attack is None
            continue
        for role, code in zip(ROLES, codes, strict=True):
            got = results[(name, role)][0]
            if got != code:
                mismatches.append(f"{name} as {role}: expected {code}, got {got}")
    assert not mismatches, f"state {state}:\n" + "\n".join(mismatches)
    # What an allowed download serves is the right file.
    assert results[("submission_a", "a")][1] == read_field(sub_a.file)
    assert results[("original", "b")][1] == world.original
    sample = results[("sample", "b")][1].decode().splitlines()
    original = world.original.decode().splitlines()
    assert sample[0] == original[0] and len(sample) == len(original)
    if attack is not None:
        assert results[("attack_b_on_a", "b")][1] == read_field(attack.file)
    if state in ("frozen", "published"):
        target = attack.target
        assert results[("target_a", "b")][1] == read_field(target.published_file)
    assert_no_secret_leaks(world, sub_a, attack, results)


def assert_no_secret_leaks(world, sub_a, attack, results):
    """No URL gives a team a truth file, nor another team's submission or attack details."""
    truths = []
    for target in world.round.targets.all():
        truths.append(read_field(target.truth_file))
        truths.append(answer_bytes(truth_of(target)).split(b"\n", 1)[1])
    for (name, role), (_status, content) in results.items():
        if role == "org":
            continue
        for secret in truths:
            assert secret not in content, f"{name} as {role} serves a truth file"
        if role != "a":
            # Team A's upload: neither its file link nor its digest reaches anyone else.
            assert sub_a.sha256.encode() not in content, f"{name} as {role}"
            assert reverse("submission_file", args=[sub_a.pk]).encode() not in content
        if attack is not None and role != "b":
            assert reverse("attack_file", args=[attack.pk]).encode() not in content, (
                f"{name} as {role} links B's attack file"
            )


def test_status_json_lists_only_the_teams_own_submissions(world, client):
    mine = scored(world, "a", seed=1)
    theirs = scored(world, "b", seed=2)
    client.force_login(world.users["a"])
    url = reverse("status_json", args=[world.competition.slug, world.round.slug])
    listed = client.get(url).json()["submissions"]
    assert [s["id"] for s in listed] == [mine.pk]
    assert listed[0]["scores"]["U1"] == mine.scores["U1"]
    assert theirs.sha256 not in client.get(url).content.decode()


# --- per-team sample mode ----------------------------------------------------------------


def test_per_team_mode_never_gives_a_team_another_teams_sample(make_world, client):

    world = make_world(data_mode=Pwscup2015Round.DataMode.PER_TEAM)
    sample = {letter: team_original(world, letter) for letter in "abc"}
    assert len(set(sample.values())) == 3, "each team has its own sample"
    scored(world, "a", seed=1, delete=2)
    scored(world, "b", seed=2, delete=2)
    targets = freeze(world)
    args = [world.competition.slug, world.round.slug]
    client.force_login(world.users["a"])
    # Team A's original download is its own sample, named teamA_original.csv.
    response = client.get(reverse("original_download", args=args))
    assert response.status_code == 200
    assert body(response) == sample["a"]
    assert "teamA_original.csv" in response["Content-Disposition"]
    # Its sample submission is made from that sample: its header and row count.
    made = client.get(reverse("sample_download", args=args))
    assert "teamA_sample_anonymized.csv" in made["Content-Disposition"]
    assert len(body(made).splitlines()) == len(sample["a"].splitlines())
    # It may fetch B's published target and candidate table, never its own.
    b_target = args + ["teamB"]
    assert client.get(reverse("target_download", args=b_target)).status_code == 200
    candidate = client.get(reverse("candidate_download", args=b_target))
    assert candidate.status_code == 200
    assert body(candidate) == read_field(targets["b"].candidate_file)
    for name in ("target_download", "candidate_download"):
        assert client.get(reverse(name, args=args + ["teamA"])).status_code == 404
    # Nothing team A can open contains B's sample file, a truth, or B's dataset path.
    b_dataset = TeamDataset.objects.get(round=world.round, team=world.teams["b"])
    pages = [
        *(tab_url(world.round, tab) for tab in TABS_KEYS),
        tab_url(world.round, SUBMIT) + "?fragment=1",
        tab_url(world.round, RESULTS) + "?fragment=1",
        reverse("sample_download", args=args),
        reverse("status_json", args=args),
        reverse("original_download", args=args),
        reverse("target_download", args=b_target),
        reverse("candidate_download", args=b_target),
        reverse("leaderboard", args=args),
        reverse("leaderboard", args=args) + "?format=csv",
    ]
    truths = [read_field(t.truth_file) for t in targets.values()]
    for url in pages:
        content = body(client.get(url))
        assert sample["b"] not in content, url
        assert sample["c"] not in content, url
        assert b_dataset.file.name.encode() not in content, url
        for truth in truths:
            assert truth not in content, url
    # Team B's sample submission is made from B's own sample, not A's.
    client.force_login(world.users["b"])
    made_b = client.get(reverse("sample_download", args=args))
    assert "teamB_sample_anonymized.csv" in made_b["Content-Disposition"]
    assert body(made_b) != body(made)
    # The organizer downloads the master table, not a sample.
    client.force_login(world.organizer)
    assert body(client.get(reverse("original_download", args=args))) == world.original


@pytest.mark.parametrize(
    ("visibility", "attack_closed", "published", "shown"),
    [
        (Pwscup2015Round.AttackVisibility.LIVE, False, False, True),
        (Pwscup2015Round.AttackVisibility.AFTER_PHASE, False, False, False),
        (Pwscup2015Round.AttackVisibility.AFTER_PHASE, True, False, True),
        (Pwscup2015Round.AttackVisibility.ON_PUBLISH, True, False, False),
        (Pwscup2015Round.AttackVisibility.ON_PUBLISH, True, True, True),
    ],
)
def test_an_attackers_own_rate_follows_the_visibility_rule(
    make_world, client, visibility, attack_closed, published, shown
):
    world = make_world(attack_visibility=visibility)
    scored(world, "a", seed=1)
    target = freeze(world)["a"]
    hit = scored_attack(world, "b", target, truth_of(target))
    assert hit.rate == 1.0
    if attack_closed:
        opens = world.attack.opens_at - (world.attack.closes_at - world.attack.opens_at)
        phase_set(
            round=world.round,
            kind=Phase.Kind.ATTACK,
            opens_at=opens,
            closes_at=world.attack.opens_at,
        )
    Pwscup2015Round.objects.filter(round=world.round).update(results_published=published)
    client.force_login(world.users["b"])
    for url in (
        tab_url(world.round, SUBMIT),
        tab_url(world.round, SUBMIT) + "?fragment=1",
        tab_url(world.round, RESULTS),
        tab_url(world.round, RESULTS) + "?fragment=1",
    ):
        page = client.get(url).content.decode()
        assert f'<tr data-testid="attack-{hit.pk}" data-status="finished">' in page, url
        assert ('data-testid="rate"' in page) is shown, url
        assert ('<span data-testid="rate">1.0000</span>' in page) is shown, url
