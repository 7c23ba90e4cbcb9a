"""The round page's local check: the command its Submit tab prints, run on exactly the files
the Data tab lets the team download (through the Django test client), gives the numbers the server stored.

Online mode is the hard case: ``master.csv`` then holds only the persons seen so far, with
their lifespans cut at the open release, and the server must not use more than that either.
"""

import json

import pytest

from pwscup.sequential.models import Release, SequenceScore
from tests.pwscup.seq_web_world import (
    assert_same,
    downloads,
    fixture,
    fixture_config,
    freeze,
    page_command,
    publish,
    run,
    seq_world,
    tab,
    url,
)

pytestmark = pytest.mark.django_db

TABLE3, TABLE9 = "zhang_release_1.csv", "zhang_release_2_table9.csv"


def test_online_the_printed_command_on_the_page_files_gives_the_stored_numbers(client, tmp_path):
    world = seq_world()
    client.force_login(world.users["a"])
    first = publish(world, "a", 1, fixture(TABLE3))
    assert first.status == Release.Status.FINISHED, first.message

    command = page_command(client, world)
    assert command[5:-2] == ["master.csv", "release_1.csv"] and command[-2:] == [
        "--config",
        "config.json",
    ]
    files = downloads(client, world, {1: first})
    local, per_person = run(command, files, tmp_path / "as-downloaded")
    assert_same(local, first.results)
    risk = client.get(url(world, "sequential:release_risk", first.pk)).content.decode()
    assert per_person == risk

    # The workaround of a team that met "T(2) is empty": n_releases edited to 1.
    config = json.loads(files["config.json"])
    config["n_releases"] = 1
    edited = {**files, "config.json": json.dumps(config).encode()}
    local, _ = run(command, edited, tmp_path / "edited")
    assert_same(local, first.results)

    # Release 2: the frozen release 1 as linked on the page, master.csv so far (now up to 2).
    freeze(world)
    second = publish(world, "a", 2, fixture(TABLE9))
    assert second.status == Release.Status.FINISHED, second.message
    page = client.get(tab(world, "data")).content.decode()
    frozen = Release.objects.get(sequential=world.sequential, team=world.teams["a"], step=1)
    assert url(world, "sequential:release_file", frozen.pk) in page
    command = page_command(client, world)
    assert command[5:-2] == ["master.csv", "release_1.csv", "release_2.csv"]
    files = downloads(client, world, {1: frozen, 2: second})
    local, per_person = run(command, files, tmp_path / "step2")
    assert_same(local, second.results)
    assert (
        per_person == client.get(url(world, "sequential:release_risk", second.pk)).content.decode()
    )

    # The frozen score of release 1 stays reproducible from the later master.csv.
    score = SequenceScore.objects.get(sequential=world.sequential, team=world.teams["a"], step=1)
    only_first = {k: v for k, v in files.items() if k != "release_2.csv"}
    local, _ = run(
        ["python", "-m", "scoring", "seq", "check", "master.csv", "release_1.csv"]
        + ["--config", "config.json"],
        only_first,
        tmp_path / "frozen1",
    )
    assert_same(local, score.results)


def test_batch_the_printed_command_gives_the_stored_numbers(client, tmp_path):
    world = seq_world(config={**fixture_config("zhang_config.json"), "mode": "batch"})
    client.force_login(world.users["a"])
    first = publish(world, "a", 1, fixture(TABLE3))
    second = publish(world, "a", 2, fixture(TABLE9))
    assert second.status == Release.Status.FINISHED, second.message
    command = page_command(client, world)
    assert command[5:-2] == ["master.csv", "release_1.csv", "release_2.csv"]
    files = downloads(client, world, {1: first, 2: second})
    local, _ = run(command, files, tmp_path / "both")
    assert_same(local, second.results)
    alone = {k: v for k, v in files.items() if k != "release_2.csv"}
    local, _ = run([*command[:7], *command[-2:]], alone, tmp_path / "first")
    assert_same(local, first.results)
