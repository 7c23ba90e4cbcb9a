"""A team's toolkit for a synthetic round: its commands give the server's numbers for the same
files (a release's scores with the round's holdout, an attack's scores against the draw's
labels: both built here, in the test only), its sample release is the kit's command's output
and uploads as it is, and it holds nothing of another team, the holdout or the labels."""

import io
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pwscup.core.kits import kit_archive
from pwscup.core.stored import stored_bytes
from pwscup.submissions.models import Status
from pwscup.synthetic import engine
from pwscup.synthetic.kit import kit_files
from pwscup.synthetic.models import TeamDraw
from scoring.synthetic.kit import table_text
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def kit_zip_bytes(*, synthetic, team) -> bytes:
    """The team's toolkit as its pages hand it (``kit_files`` packed with the wheel)."""
    with kit_archive(kit_files(synthetic=synthetic, team=team)) as archive:
        return archive.read()


def synth(*args, cwd: Path) -> str:
    """``python -m scoring synth …`` in ``cwd`` (a fresh interpreter, as a team runs it)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "synth", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def unpack(content: bytes, folder: Path) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        archive.extractall(folder)
        return {name: archive.read(name) for name in archive.namelist()}


def csv_lines(frame: pd.DataFrame) -> set[str]:
    return set(table_text(frame).splitlines()[1:])


def test_the_kit_s_commands_give_the_server_s_numbers(tmp_path):
    world = syn_world(slug="synkit", letters="ab")
    files = unpack(kit_zip_bytes(synthetic=world.synthetic, team=world.teams["a"]), tmp_path)
    assert {"README.md", "population.json", "config.json", "teamA_train.csv"} <= set(files)
    assert "teamA_synthetic.csv" in files and any(n.endswith(".whl") for n in files)
    assert "aux.csv" not in files  # public only once the releases are frozen

    # The sample release is what the kit's command writes, and it uploads as it is.
    synth(
        "baseline",
        "teamA_train.csv",
        "--population",
        "population.json",
        "-o",
        "again.csv",
        cwd=tmp_path,
    )
    assert (tmp_path / "again.csv").read_bytes() == files["teamA_synthetic.csv"]
    kept = release(world, "a", files["teamA_synthetic.csv"])
    assert kept.status == Status.FINISHED, kept.message

    # score-release with the team's train.csv and the round's holdout: the server's scores.
    population = engine.round_population(world.round)
    holdout = engine.rows_of(population, world.synthetic.holdout)
    (tmp_path / "holdout.csv").write_text(table_text(holdout), encoding="utf-8")
    local = json.loads(
        synth(
            "score-release",
            "teamA_synthetic.csv",
            "--population",
            "population.json",
            "--train",
            "teamA_train.csv",
            "--holdout",
            "holdout.csv",
            "--format",
            "json",
            cwd=tmp_path,
        )
    )
    server = {k: v for k, v in kept.scores.items() if k != "passes"}
    assert local == server

    # score-attack on the sample attack, against the draw's labels: the server's scores.
    release(world, "b", baseline_release(world, "b"))
    targets = freeze(world)
    open_attack_phase(world)
    world.synthetic.refresh_from_db()
    target = targets["teamB"]
    draw = TeamDraw.objects.get(synthetic=world.synthetic, team=world.teams["b"])
    (tmp_path / "teamB_synthetic.csv").write_bytes(stored_bytes(target.release.file))
    (tmp_path / "teamB_challenge.csv").write_text(
        engine.challenge_text(engine.rows_of(population, draw.challenge)), encoding="utf-8"
    )
    synth(
        "attack-dcr",
        "teamB_synthetic.csv",
        "teamB_challenge.csv",
        "--population",
        "population.json",
        "-o",
        "teamA_mia_teamB.csv",
        cwd=tmp_path,
    )
    answer = (tmp_path / "teamA_mia_teamB.csv").read_bytes()
    scored = attack(world, "a", target, answer)
    assert scored.status == Status.FINISHED, scored.message
    truth = pd.DataFrame(
        {
            "id": np.arange(1, len(draw.labels) + 1),
            "member": draw.labels,
            "half": ["dev" if d else "final" for d in draw.dev],
        }
    )
    truth.to_csv(tmp_path / "truth.csv", index=False)
    levels = [str(level) for level in world.round.config["fpr_levels"]]
    local = json.loads(
        synth(
            "score-attack",
            "teamA_mia_teamB.csv",
            "--truth",
            "truth.csv",
            "--fpr",
            *levels,
            "--format",
            "json",
            cwd=tmp_path,
        )
    )
    assert local == {"dev": scored.dev, "final": scored.final}

    # The built-in density attack from the kit of the frozen round (its aux.csv, the round's
    # bandwidth in population.json): the server's scores of the target, exactly.
    files = unpack(kit_zip_bytes(synthetic=world.synthetic, team=world.teams["a"]), tmp_path)
    assert json.loads(files["population.json"])["config"]["density_bandwidth"] == 0.1
    synth(
        "attack-density",
        "teamB_synthetic.csv",
        "teamB_challenge.csv",
        "aux.csv",
        "--population",
        "population.json",
        "-o",
        "density_mia_teamB.csv",
        cwd=tmp_path,
    )
    local = json.loads(
        synth(
            "score-attack",
            "density_mia_teamB.csv",
            "--truth",
            "truth.csv",
            "--fpr",
            *levels,
            "--format",
            "json",
            cwd=tmp_path,
        )
    )
    target.refresh_from_db()
    server = target.builtin["density"]
    assert local == {"dev": server["dev"], "final": server["final"]}


def test_the_kit_holds_no_other_team_s_rows_no_holdout_no_label(tmp_path):
    world = syn_world(slug="synkitsafe", seed=3_141_592_653_589_793_238)
    population = engine.round_population(world.round)
    draws = {d.team.slug: d for d in TeamDraw.objects.filter(synthetic=world.synthetic)}
    own = draws["teamA"]

    def rows(positions):
        return engine.rows_of(population, positions)

    secret = csv_lines(rows(world.synthetic.holdout)) | csv_lines(rows(own.nonmembers))
    for slug, draw in draws.items():
        if slug != "teamA":
            secret |= csv_lines(rows(draw.members)) | csv_lines(rows(draw.nonmembers))

    def check(files: dict[str, bytes], allowed: set[str]) -> None:
        for name, content in files.items():
            if name.endswith(".whl"):
                continue
            text = content.decode("utf-8")
            leaked = (set(text.splitlines()) & secret) - allowed
            assert not leaked, (name, sorted(leaked)[:3])
            assert str(world.synthetic.secret_seed) not in text
            for word in ('"holdout"', '"labels"', "member,half", "secret_seed"):
                assert word not in text, (name, word)
        assert not any("truth" in name or "challenge" in name for name in files)

    before = unpack(kit_zip_bytes(synthetic=world.synthetic, team=world.teams["a"]), tmp_path)
    assert before["teamA_train.csv"].decode() == table_text(rows(own.members))
    check(before, allowed=csv_lines(rows(own.members)))

    # After the freeze the auxiliary table joins (public to every team then), nothing else.
    release(world, "a", before["teamA_synthetic.csv"])
    freeze(world)
    world.synthetic.refresh_from_db()
    after = unpack(kit_zip_bytes(synthetic=world.synthetic, team=world.teams["a"]), tmp_path / "2")
    assert set(after) - set(before) == {"aux.csv"}
    assert after["aux.csv"].decode() == table_text(rows(world.synthetic.aux))
    check(after, allowed=csv_lines(rows(own.members)) | csv_lines(rows(world.synthetic.aux)))
    readme = after["README.md"].decode()
    assert "synth practice aux.csv" in readme and "score-attack" in readme
    assert "synth practice" not in before["README.md"].decode()
    # The README's practice commands run as written on the kit's files.
    commands = [
        line.split()[4:]
        for line in readme.split("## 日本語")[0].splitlines()
        if line.strip().startswith("python -m scoring synth") and "practice" in line
    ]
    assert len(commands) == 4
    for args in commands:
        synth(*args, cwd=tmp_path / "2")
    assert (tmp_path / "2" / "practice" / "answer.csv").exists()


def test_syn_the_data_tab_offers_the_kit_to_the_team_only(client):
    """The Data tab's starter kit: a ZIP of the team's own files for its members; a visitor
    and another competition's user get no kit."""
    import io
    import zipfile

    from django.urls import reverse

    from tests.pwscup.syn_world import syn_world

    world = syn_world(slug="synkitweb", letters="ab")
    args = [world.competition.slug, world.round.slug]
    address = reverse("synthetic:kit", args=args)
    assert client.get(address).status_code in (302, 403, 404)
    client.force_login(world.users["a"])
    data_tab = client.get(reverse("round_tab", args=[*args, "data"])).content.decode()
    assert address in data_tab
    answer = client.get(address)
    assert answer.status_code == 200
    names = zipfile.ZipFile(io.BytesIO(b"".join(answer.streaming_content))).namelist()
    assert any(name.endswith("teamA_train.csv") for name in names)
    assert not any("teamB" in name for name in names)
