"""The sequential round's starter kit (ZIP) and sample release: the kit holds what the Data tab
offers the team and nothing more (online: no future release, the master only as known so
far; never another team's master), the toolkit wheel and a bilingual README whose commands
write the sample and check it as the server does."""

import json

import pytest
from django.conf import settings

from pwscup.core import toolkit
from pwscup.sequential import services
from pwscup.sequential.models import Release
from tests.pwscup.seq_web_world import (
    fixture,
    fixture_config,
    freeze,
    kit_members,
    kit_round_trip,
    publish,
    readme_commands,
    sample,
    seq_world,
    upload_file,
    url,
)

pytestmark = pytest.mark.django_db

LATER = (b"\nEmily,", b"\nMary,", b"\nRay,", b"\nTom,", b"\nVince,")  # persons of T(2) only


@pytest.fixture(scope="module")
def wheel():
    return toolkit.toolkit_wheel(settings.PWSCUP_TOOLKIT_DIR)


def test_online_the_kit_holds_the_open_release_only_and_the_master_so_far(client, wheel):
    world = seq_world()
    client.force_login(world.users["a"])
    members = kit_members(client, world)
    assert set(members) == {"README.md", "config.json", "master.csv", "T1.csv", wheel.name}
    assert members[wheel.name] == wheel.read_bytes()
    assert members["master.csv"] == client.get(url(world, "sequential:master")).content
    assert members["T1.csv"] == client.get(url(world, "sequential:step_table", 1)).content
    for later in LATER:  # the future stays hidden
        assert later not in members["master.csv"] and later not in members["T1.csv"]
    assert b"\nBob,21,12000,dyspepsia,1,1\n" in members["master.csv"]  # lsb cut at 1
    assert json.loads(members["config.json"]) == client.get(url(world, "sequential:config")).json()

    readme = members["README.md"].decode()
    english, japanese = readme.split("## 日本語")
    for part in (english, japanese):
        assert "python -m venv .venv" in part and ". .venv/bin/activate" in part
        assert f"pip install {wheel.name}" in part
        assert (
            "python -m scoring seq baseline T1.csv --config config.json --release 1 "
            "-o release_1.csv" in part
        )
        assert "python -m scoring seq check master.csv release_1.csv --config config.json" in part
    assert "2-invariance" in english and "2-不変性" in japanese and "ゲームの内容" in japanese
    assert "T2.csv" not in readme

    publish(world, "a", 1, sample(client, world)[1])
    freeze(world)
    members = kit_members(client, world)
    assert set(members) == {
        "README.md",
        "config.json",
        "master.csv",
        "T1.csv",
        "T2.csv",
        "release_1.csv",
        wheel.name,
    }
    frozen = Release.objects.get(team=world.teams["a"], step=1, is_frozen=True)
    assert (
        members["release_1.csv"]
        == client.get(url(world, "sequential:release_file", frozen.pk)).content
    )
    assert [c[4:] for c in readme_commands(members["README.md"].decode())] == [
        ["baseline", "T2.csv", "--config", "config.json", "--release", "2", "--previous"]
        + ["release_1.csv", "-o", "release_2.csv"],
        ["check", "master.csv", "release_1.csv", "release_2.csv", "--config", "config.json"],
    ]


def test_batch_the_kit_holds_every_release_and_the_readme_chains_them(client, wheel):
    world = seq_world(config={**fixture_config("zhang_config.json"), "mode": "batch"})
    client.force_login(world.users["a"])
    members = kit_members(client, world)
    assert {"T1.csv", "T2.csv", "master.csv"} <= set(members)
    assert members["master.csv"] == client.get(url(world, "sequential:master")).content
    assert b"\nEmily,25,21000,flu,2,2" in members["master.csv"]  # batch: the whole master
    baseline = [c for c in readme_commands(members["README.md"].decode()) if c[4] == "baseline"]
    assert [c[5] for c in baseline] == ["T1.csv", "T2.csv"]
    assert "--previous" in baseline[1] and "--previous" not in baseline[0]


def test_the_kit_s_commands_write_the_sample_and_check_it_as_the_server_does(client, tmp_path):
    world = seq_world()
    client.force_login(world.users["a"])
    first = kit_round_trip(client, world, "a", tmp_path / "step1")
    assert first.step == 1
    freeze(world)
    second = kit_round_trip(client, world, "a", tmp_path / "step2")
    assert second.step == 2 and second.results["MINV"] == 2


def test_the_kit_and_the_sample_never_hold_another_team_s_persons(client):
    world = seq_world(config=fixture_config("small_config.json"), master=None, letters="ab")
    for letter in "ab":
        master = fixture("small_master.csv")
        if letter == "b":
            for name in (b"Bob", b"Alice", b"Andy", b"David", b"Emily"):
                master = master.replace(b"\n" + name + b",", b"\nB_" + name + b",")
        services.master_upload(
            sequential=world.sequential,
            uploaded_file=upload_file(master, "master.csv"),
            team=world.teams[letter],
        )
    client.force_login(world.users["b"])
    members = kit_members(client, world)
    name, content = sample(client, world)
    for data in [*members.values(), content]:
        assert b",Bob," not in data and b"\nBob," not in data
    assert b",B_Bob," in content and name == "release_1.csv"
    release = publish(world, "b", 1, content)
    assert release.status == Release.Status.FINISHED, release.message


def test_no_kit_nor_sample_for_a_visitor_or_an_organizer_without_a_team(client):
    world = seq_world()
    for user in (None, world.organizer):
        client.logout()
        if user is not None:
            client.force_login(user)
        assert client.get(url(world, "sequential:kit")).status_code in (302, 404)
        assert client.get(url(world, "sequential:sample")).status_code in (302, 404)
