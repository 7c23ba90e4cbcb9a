"""The results archive of DP and sequential rounds, with the published slides, and on an S3
bucket: each kind's outcome is in it, its secrets only when ticked."""

import json

import pytest
from django.test import Client

from pwscup.archives.services import archive_publish
from pwscup.kinds import kind_of
from pwscup.kinds.archives import GROUND_TRUTH, ORIGINAL, PERMUTATIONS, SAMPLES
from pwscup.presentations import services as presentations
from pwscup.sequential import services as seq_services
from tests.pwscup.archive_world import (
    ALL_SECRETS,
    archive_zip,
    body,
    data_lines,
    fetch,
    leaks,
    manifest,
    play_2015,
    publish_and_read,
    sha256,
)
from tests.pwscup.dp_world import build_dp_world, close_now, toy_csv
from tests.pwscup.factories import read_field
from tests.pwscup.presentations_support import close, rendered, upload, window_for
from tests.pwscup.seq_web_world import (
    attack_phase_world,
    fixture,
    fixture_config,
    seq_world,
)
from tests.support import csv_upload

pytestmark = pytest.mark.django_db


def client_of(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def added_by(competition, key: str, base: set[str]) -> set[str]:
    _archive, members = publish_and_read(competition, secrets=[key])
    data = manifest(members)
    added = set(members) - base
    assert {m["name"] for m in data["members"] if m["secret"]} == added
    assert {m["secret"] for m in data["members"] if m["secret"]} <= {key}
    return added


# --- DP --------------------------------------------------------------------------------


def dp_estimate(gender_age, gender) -> bytes:
    cells = [(g, a) for g in "FM" for a in ("<=17", "18-24", "25-34")]
    lines = ["target,gender,age,count"]
    lines += [f"gender_age,{g},{a},{v}" for (g, a), v in zip(cells, gender_age, strict=True)]
    lines += [f"gender,{g},,{v}" for g, v in zip("FM", gender, strict=True)]
    return ("\n".join(lines) + "\n").encode()


def test_a_dp_round_is_archived_after_its_close_and_scoring_only(db):
    from pwscup.dp.services import dp_estimate_check, dp_estimate_upload, dp_round_score

    world = build_dp_world()
    for letter, estimate in (("a", [0, 2, 2, 1, 2, 3]), ("b", [1, 1, 1, 1, 1, 5])):
        kept = dp_estimate_upload(
            dp_round=world.dp_round,
            team=world.teams[letter],
            user=world.users[letter],
            level="eps-1",
            uploaded_file=csv_upload(dp_estimate(estimate, [4, 6]), "estimate.csv"),
        )
        dp_estimate_check(estimate_id=kept.pk)
    kind = kind_of(world.round)
    assert kind.results_published(world.round) is False  # open: nothing final yet
    with pytest.raises(Exception, match="nothing to archive"):
        archive_publish(competition=world.competition, secrets=ALL_SECRETS, user=None)
    close_now(world)
    world.dp_round.refresh_from_db()
    assert kind.results_published(world.round) is False  # closed, not scored yet
    assert dp_round_score(dp_round=world.dp_round)
    world.dp_round.refresh_from_db()
    assert kind.results_published(world.round) is True
    archive, members = publish_and_read(world.competition)
    leaderboard = members["rounds/dp/leaderboard.csv"].decode()
    assert leaderboard.splitlines()[0].startswith("level,table,rank,team")
    assert ",Team A," in leaderboard and ",Team B," in leaderboard
    hidden = toy_csv()
    assert leaks(members, [hidden, b"\n".join(hidden.splitlines()[:4])]) == []
    assert not [n for n in members if "hidden" in n]
    added = added_by(world.competition, ORIGINAL, set(members))
    assert added == {"rounds/dp/hidden_table.csv"}
    _archive, with_original = publish_and_read(world.competition, secrets=[ORIGINAL])
    assert with_original["rounds/dp/hidden_table.csv"] == hidden
    for key in (SAMPLES, PERMUTATIONS, GROUND_TRUTH):
        assert added_by(world.competition, key, set(members)) == set()
    card = json.loads(members["data-card.json"])["rounds"][0]
    assert card["kind"] == "dp" and card["original"]["rows"] == 10
    assert card["original"]["sha256"] == sha256(hidden)
    assert [c["name"] for c in card["columns"]] == ["gender", "age"]
    assert "eps-1 (ε = 1)" in card["rules"]
    response = fetch(client_of(world.users["b"]), "dpcup", archive.version)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"


# --- sequential ---------------------------------------------------------------------------


def attack_world():
    """Teams A and B, each with its own master, publish both releases; the attack phase."""
    world = attack_phase_world(slug="seqarc", pool=None)
    return world


def test_a_sequential_round_with_an_attack_phase(db):
    world = attack_world()
    kind = kind_of(world.round)
    assert kind.results_published(world.round) is False
    with pytest.raises(Exception, match="nothing to archive"):
        archive_publish(competition=world.competition, secrets=[], user=None)
    seq_services.results_publish(sequential=world.sequential)
    archive, members = publish_and_read(world.competition)
    names = set(members)
    assert {
        "rounds/s1/leaderboard.csv",
        "rounds/s1/attack_matrix.csv",
        "rounds/s1/attack_ranking.csv",
        "rounds/s1/targets/teamA/teamA_release_1.csv",
        "rounds/s1/targets/teamA/teamA_background.csv",
        "rounds/s1/targets/teamB/teamB_release_2.csv",
    } <= names
    target = world.sequential.targets.get(team=world.teams["a"])
    assert members["rounds/s1/targets/teamA/teamA_release_2.csv"] == (
        target.files["teamA_release_2.csv"].encode()
    )
    board = members["rounds/s1/leaderboard.csv"].decode().splitlines()
    assert board[0].startswith("rank,team,releases,complete,gate_failures,safety")
    assert len(board) == 3
    matrix = members["rounds/s1/attack_matrix.csv"].decode().splitlines()
    assert matrix[0] == "attacker,Team A,Team B" and matrix[1].startswith("MAP_N,")
    # No master, no master's row, no release as uploaded (with its pids).
    master = fixture("small_master.csv")
    releases = [read_field(r.file) for r in world.sequential.releases.all()]
    secrets = [master, *data_lines(master), *releases]
    secrets += [line for r in releases for line in data_lines(r)]
    assert leaks(members, secrets) == []
    assert added_by(world.competition, SAMPLES, names) == {
        "rounds/s1/samples/teamA_master.csv",
        "rounds/s1/samples/teamB_master.csv",
    }
    assert added_by(world.competition, GROUND_TRUTH, names) == {
        f"rounds/s1/ground_truth/team{x}/release_{j}.csv" for x in "AB" for j in (1, 2)
    }
    for key in (ORIGINAL, PERMUTATIONS):  # no pool, no shared master; no permutation kept
        assert added_by(world.competition, key, names) == set()
    _archive, ticked = publish_and_read(world.competition, secrets=[SAMPLES, GROUND_TRUTH])
    assert ticked["rounds/s1/samples/teamA_master.csv"] == master
    frozen = world.sequential.releases.get(team=world.teams["b"], step=2, is_frozen=True)
    assert ticked["rounds/s1/ground_truth/teamB/release_2.csv"] == read_field(frozen.file)
    card = json.loads(members["data-card.json"])["rounds"][0]
    assert card["kind"] == "sequential"
    roles = {c["name"]: c["role"] for c in card["columns"]}
    assert roles["Age"] == "quasi-identifier" and roles["Disease"] == "sensitive"
    assert roles["pid"].startswith("identifier")
    assert fetch(client_of(world.users["a"]), "seqarc", archive.version).status_code == 200


def test_a_sequential_shared_master_and_a_pool_are_the_original(db):
    world = seq_world(slug="seqmaster", letters="a")
    seq_services.results_publish(sequential=world.sequential)
    _archive, members = publish_and_read(world.competition)
    master = fixture("zhang_master.csv")
    assert leaks(members, [master, *data_lines(master)]) == []
    assert added_by(world.competition, ORIGINAL, set(members)) == {"rounds/s1/master.csv"}
    _archive, ticked = publish_and_read(world.competition, secrets=[ORIGINAL])
    assert ticked["rounds/s1/master.csv"] == master
    card = json.loads(members["data-card.json"])["rounds"][0]
    assert card["original"]["rows"] == world.sequential.masters.get().persons
    # Three diseases: a draw of 40 is 2-eligible (no disease in more than half of a release)
    # at almost every try. With two, only an exact 20/20 split at both releases is, and the
    # draw (secret seed: random) failed its 100 attempts now and then.
    diseases = ("flu", "cold", "fever")
    rows = [f"P{i},{20 + i % 40},{(10 + i % 30) * 1000},{diseases[i % 3]}" for i in range(200)]
    pool = ("pid,Age,Zip,Disease\n" + "\n".join(rows) + "\n").encode()
    config = {
        **fixture_config("zhang_config.json"),
        "per_team": {"pool": "pool.csv", "size": 40, "turnover": 0.25, "seed": 7},
    }
    pooled = seq_world(slug="seqpool", config=config, master=None, pool=pool, letters="ab")
    seq_services.results_publish(sequential=pooled.sequential)
    _archive, members = publish_and_read(pooled.competition)
    drawn = [read_field(m.file) for m in pooled.sequential.masters.all()]
    secrets = [pool, *data_lines(pool), *drawn, *[line for d in drawn for line in data_lines(d)]]
    assert len(drawn) == 2 and leaks(members, secrets) == []
    assert added_by(pooled.competition, ORIGINAL, set(members)) == {"rounds/s1/pool.csv"}
    assert added_by(pooled.competition, SAMPLES, set(members)) == {
        "rounds/s1/samples/teamA_master.csv",
        "rounds/s1/samples/teamB_master.csv",
    }
    card = json.loads(members["data-card.json"])["rounds"][0]
    assert card["original"] == {
        "rows": 200,
        "sha256": sha256(pool),
        "description": card["original"]["description"],
    }
    assert "pool" in card["original"]["description"]


# --- slides, S3 ---------------------------------------------------------------------------


def test_the_published_slides_and_policies_are_in_the_archive(make_world):
    world = make_world()
    window = window_for(world, title="Final talks")
    first = rendered(
        upload(world, window, "a", anonymization_policy="k = 5", attack_policy="linkage")
    )
    second = rendered(upload(world, window, "b"))
    play_2015(world)
    close(window)
    _archive, members = publish_and_read(world.competition)
    assert json.loads(members["slides/index.json"]) == []  # not published yet: none
    presentations.presentations_publish(window=window, user=world.organizer)
    _archive, members = publish_and_read(world.competition)
    assert members["slides/final-talks/teamA.pdf"] == read_field(first.file)
    assert members["slides/final-talks/teamB.pdf"] == read_field(second.file)
    policies = members["slides/final-talks/teamA-policies.md"].decode()
    assert "k = 5" in policies and "linkage" in policies
    assert "slides/final-talks/teamB-policies.md" not in members
    index = json.loads(members["slides/index.json"])
    assert [(e["team_slug"], e["round"], e["window"]) for e in index] == [
        ("teamA", "r1", "Final talks"),
        ("teamB", "r1", "Final talks"),
    ]
    listed = {m["name"]: m for m in manifest(members)["members"]}
    assert listed["slides/final-talks/teamA.pdf"]["sha256"] == first.sha256


def test_the_archive_on_an_s3_bucket(make_world, s3_server, s3_bucket):
    world = make_world()
    play_2015(world)
    archive = archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    objects = s3_server.objects(s3_bucket)
    assert archive.file.name in objects and archive.file.name.startswith("private/archives/")
    assert sha256(objects[archive.file.name]) == archive.sha256
    response = fetch(client_of(world.users["a"]), "cup", 1)
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    content = body(response)
    assert sha256(content) == archive.sha256 and len(content) == archive.size
    members = archive_zip(content)
    assert manifest(members)["version"] == 1 and "rounds/r1/final_anonymization.csv" in members
    assert members["rounds/r1/targets/teamA/anonymized.csv"]
    second = archive_publish(competition=world.competition, secrets=[], user=world.organizer)
    assert second.file.name != archive.file.name
    assert fetch(client_of(world.users["a"]), "cup", 1).status_code == 200
