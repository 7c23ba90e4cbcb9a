"""Who may open what of a sequential round: role × URL as data, every answer scanned for the
other team's secrets (its pids with their sensitive values, its releases, its risk table)."""

import pytest
from django.urls import reverse

from pwscup.sequential import services
from tests.pwscup.seq_web_world import fixture, fixture_config, freeze, publish, seq_world, tab
from tests.pwscup.seq_web_world import upload_file as as_upload

pytestmark = pytest.mark.django_db


def renamed(content: bytes) -> bytes:
    """Team B's copy of the W3 files with its own persons (``B_Bob`` …)."""
    out = content.decode()
    for name in ("Bob", "Alice", "Andy", "David", "Emily"):
        out = out.replace(f"\n{name},", f"\nB_{name},").replace(f",{name},", f",B_{name},")
    return out.encode()


@pytest.fixture
def access_world():
    config = {**fixture_config("small_config.json"), "attack_phase": True}
    world = seq_world(slug="seqacc", config=config, master=None, letters="ab")
    files = {"a": lambda name: fixture(name), "b": lambda name: renamed(fixture(name))}
    for letter in "ab":
        services.master_upload(
            sequential=world.sequential,
            uploaded_file=as_upload(files[letter]("small_master.csv"), "master.csv"),
            team=world.teams[letter],
        )
        publish(world, letter, 1, files[letter]("small_release_1.csv"))
    freeze(world)
    for letter in "ab":
        publish(world, letter, 2, files[letter]("small_release_2.csv"))
    freeze(world)
    return world


# role → expected status per URL key (a redirect is the login page for a visitor)
MATRIX = {
    #               A     B     organizer visitor
    "round": (200, 200, 200, 200),
    "T1": (200, 200, 404, 404),
    "master_own": (200, 200, 404, 404),  # the organizer: no shared master here
    "master_of_A": (404, 404, 200, 404),
    "config": (200, 200, 200, 404),
    "release_A": (200, 404, 200, 404),
    "release_A_file": (200, 404, 200, 404),
    "release_A_risk": (200, 404, 200, 404),
    "leaderboard": (200, 200, 200, 404),
    "target_A": (200, 200, 200, 404),
    "kit": (200, 200, 404, 404),  # the organizer is in no team here
    "sample": (404, 404, 404, 404),  # every release is frozen: nothing to upload
    **{f"tab_{key}": (200, 200, 200, 200) for key in ("data", "rules", "submit", "results")},
}
ROLES = ("a", "b", "organizer", "visitor")


def urls(world) -> dict:
    comp, rnd = world.competition.slug, world.round.slug
    release = world.sequential.releases.filter(team=world.teams["a"], step=2).first()
    return {
        "round": reverse("round_detail", args=[comp, rnd]),
        "T1": reverse("sequential:step_table", args=[comp, rnd, 1]),
        "master_own": reverse("sequential:master", args=[comp, rnd]),
        "master_of_A": reverse("sequential:master", args=[comp, rnd]) + "?team=teamA",
        "config": reverse("sequential:config", args=[comp, rnd]),
        "release_A": reverse("sequential:release", args=[comp, rnd, release.pk]),
        "release_A_file": reverse("sequential:release_file", args=[comp, rnd, release.pk]),
        "release_A_risk": reverse("sequential:release_risk", args=[comp, rnd, release.pk]),
        "leaderboard": reverse("sequential:leaderboard", args=[comp, rnd]),
        "target_A": reverse(
            "sequential:target_file", args=[comp, rnd, "teamA", "teamA_release_2.csv"]
        ),
        "kit": reverse("sequential:kit", args=[comp, rnd]),
        "sample": reverse("sequential:sample", args=[comp, rnd]),
        **{f"tab_{key}": tab(world, key) for key in ("data", "rules", "submit", "results")},
    }


def test_role_by_url_matrix_and_no_leak_of_the_other_teams_truth(client, access_world):
    world = access_world
    users = {"a": world.users["a"], "b": world.users["b"], "organizer": world.organizer}
    table = urls(world)
    a_truth = [b"\nBob,21,12000,dyspepsia", b"\nEmily,21,12000,dyspepsia", b"P_N_true"]
    for index, role in enumerate(ROLES):
        client.logout()
        if role != "visitor":
            client.force_login(users[role])
        for key, url in table.items():
            response = client.get(url)
            expected = MATRIX[key][index]
            assert response.status_code == expected, (role, key, response.status_code)
            if role == "b" and response.status_code == 200:
                body = b"".join(response) if response.streaming else response.content
                for secret in a_truth[:2]:
                    assert secret not in body, (key, secret)
                if key != "round":
                    assert not (key.startswith("release_A") and b"P_N_true" in body)


def test_posting_as_a_team_changes_nothing_of_the_organizer(client, access_world):
    world = access_world
    client.force_login(world.users["b"])
    for action in ("freeze", "draw", "publish", "master"):
        url = reverse("sequential:action", args=[world.competition.slug, world.round.slug, action])
        assert client.post(url).status_code == 403
    world.sequential.refresh_from_db()
    assert not world.sequential.results_published
