"""``pwscup status|submit --wait|download|leaderboard`` on a DP round and a sequential round
(issue 34: "No such round" before), ``pwscup download`` on a synthetic round: a live test server, the real Celery worker on Redis, the
client in its own process. The client knows no kind: it follows the round's status."""

import subprocess
import sys

import pytest

from pwscup.api.services import api_token_create
from pwscup.dp.models import Estimate
from pwscup.sequential.models import Release
from tests.pwscup.dp_world import build_dp_world
from tests.pwscup.seq_web_world import fixture, freeze, publish, seq_world
from tests.pwscup.syn_world import syn_world
from tests.support import run_pwscup as run

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def log_in(live_server, user, home) -> None:
    home.mkdir()
    token = api_token_create(user=user, name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token)
    assert login.returncode == 0, login.stderr


def test_a_sequential_round_through_the_client(live_server, celery_worker_process, tmp_path):
    world = seq_world(slug="seqcli")
    home = tmp_path / "a"
    log_in(live_server, world.users["a"], home)
    ref = f"{world.competition.slug}/{world.round.slug}"

    # The data the team may have now: its master so far, the configuration, T(1) only.
    data = run(["download", ref, "-o", "data"], config_dir=home)
    assert data.returncode == 0, data.stderr
    assert sorted(p.name for p in (home / "data").iterdir()) == [
        "T1.csv",
        "config.json",
        "master.csv",
    ]

    # Submit release 1: the one open step is filled in; the worker checks it.
    (home / "release_1.csv").write_bytes(fixture("zhang_release_1.csv"))
    submitted = run(["submit", ref, "release_1.csv", "--wait"], config_dir=home)
    assert submitted.returncode == 0, submitted.stderr
    assert "Release 1 (#1) is received" in submitted.stderr
    assert submitted.stderr.rstrip().endswith(": finished")
    kept = Release.objects.get(team=world.teams["a"])
    assert kept.status == Release.Status.FINISHED and kept.attempts == 1 and kept.worker
    # The same results as the same file uploaded from the page, checked here.
    page = publish(world, "b", 1, fixture("zhang_release_1.csv"))
    assert kept.results == page.results
    minv = next(line for line in submitted.stdout.splitlines() if line.startswith("MINV "))
    assert minv.split()[-1] == str(page.results["MINV"])

    status = run(["status", ref], config_dir=home)
    assert status.returncode == 0, status.stderr
    assert "Sequential release (m-invariance)" in status.stdout
    upload_line = next(line for line in status.stdout.splitlines() if line.startswith("#1 "))
    assert "release 1" in upload_line and "finished" in upload_line
    assert run(["status"], config_dir=home).stdout.count(ref) == 1

    # Release 2 is not open yet: the server's message, exit 1.
    (home / "release_2.csv").write_bytes(fixture("zhang_release_2_table9.csv"))
    refused = run(["submit", ref, "release_2.csv", "--field", "step=2"], config_dir=home)
    assert refused.returncode == 1
    assert "Release 2 opens when release 1 is frozen." in refused.stderr

    freeze(world)
    board = run(["leaderboard", ref], config_dir=home)
    assert board.returncode == 0, board.stderr
    assert "Team A" in board.stdout and "Team B" in board.stdout and "MINV" in board.stdout

    # In Japanese: the client's own words and the server's.
    ja = run(["status", ref], config_dir=home, language="ja")
    assert "あなたのアップロード" in ja.stdout and "公開データ 1" in ja.stdout


def test_a_dp_round_through_the_client(live_server, celery_worker_process, tmp_path):
    world = build_dp_world(slug="dpcli")
    home = tmp_path / "a"
    log_in(live_server, world.users["a"], home)
    ref = f"{world.competition.slug}/{world.round.slug}"

    status = run(["status", ref], config_dir=home)
    assert status.returncode == 0, status.stderr
    assert "No upload yet." in status.stdout

    data = run(["download", ref, "-o", "."], config_dir=home)
    assert data.returncode == 0, data.stderr
    assert (home / "dp_sample_estimate.csv").exists()
    # What the kit's commands read comes too: the docs' check runs on the downloaded files.
    assert (home / "practice_table.csv").exists()
    check = scoring_command(
        ["dp", "check", "dp_sample_estimate.csv", "--config", "dp_config.json"], home
    )
    assert check.returncode == 0, check.stderr
    # Two levels: the client asks which one.
    ambiguous = run(["submit", ref, "dp_sample_estimate.csv"], config_dir=home)
    assert ambiguous.returncode == 2 and "estimate-eps-1, estimate-eps-4" in ambiguous.stderr
    submitted = run(
        ["submit", ref, "dp_sample_estimate.csv", "--type", "estimate-eps-1", "--wait"],
        config_dir=home,
    )
    assert submitted.returncode == 0, submitted.stderr
    assert submitted.stderr.rstrip().endswith(": finished")
    assert "#1: no score to show yet." in submitted.stdout  # scores after the close only
    assert Estimate.objects.get(team=world.teams["a"]).status == Estimate.Status.FINISHED

    status = run(["status", ref], config_dir=home)
    # The level's table, titled by its --type key; no "(final)": the team chooses none.
    uploads = status.stdout[status.stdout.index("\nestimate-eps-1: ") :]
    upload_line = next(line for line in uploads.splitlines() if line.startswith("#1 "))
    assert "level eps-1" in upload_line and upload_line.split()[2] == "finished"
    assert "(final)" not in status.stdout

    board = run(["leaderboard", ref], config_dir=home)
    assert board.returncode == 1 and "[not_closed]" in board.stderr


def scoring_command(args: list[str], folder) -> subprocess.CompletedProcess:
    """``python -m scoring …`` run in ``folder``, as a team runs the kit's commands."""
    command = [sys.executable, "-m", "scoring", *args]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, check=False)


def test_a_synthetic_round_s_download_holds_what_the_kit_s_commands_read(live_server, tmp_path):
    world = syn_world(slug="syncli", letters="a")
    home = tmp_path / "a"
    log_in(live_server, world.users["a"], home)
    data = run(["download", f"syncli/{world.round.slug}", "-o", "."], config_dir=home)
    assert data.returncode == 0, data.stderr
    assert {"teamA_train.csv", "population.json", "config.json"} <= {p.name for p in home.iterdir()}
    # The docs' first two commands run on the downloaded files alone.
    baseline = ["synth", "baseline", "teamA_train.csv", "--population", "population.json"]
    made = scoring_command([*baseline, "-o", "teamA_synthetic.csv"], home)
    assert made.returncode == 0, made.stderr
    checked = scoring_command(
        ["synth", "check", "teamA_synthetic.csv", "--population", "population.json"], home
    )
    assert checked.returncode == 0, checked.stderr
