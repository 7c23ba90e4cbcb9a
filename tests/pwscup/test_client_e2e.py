"""The ``pwscup`` console script end to end: a live test server, a real Celery worker on the
real Redis broker, the client in its own process. ``submit --wait`` prints exactly the table
``python -m scoring evaluate`` prints for the same files."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pwscup.api.services import api_token_create
from pwscup.pwscup2015.models import Target
from pwscup.pwscup2015.scoring_guide import round_scoring_config
from tests.pwscup.factories import answer_bytes, freeze, read_field, truth_of
from tests.support import PWSCUP_SCRIPT as SCRIPT
from tests.support import noisy_copy
from tests.support import run_pwscup as run

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def logged_in(world, live_server, tmp_path):
    """Team A's and team B's clients, each logged in with its own token."""
    homes = {}
    for letter in "ab":
        home = tmp_path / f"team-{letter}"
        home.mkdir()
        token = api_token_create(user=world.users[letter], name="cli").secret
        login = run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token)
        assert login.returncode == 0, login.stderr
        assert f"as {world.users[letter].username}" in login.stdout
        homes[letter] = home
    return homes


def test_the_console_script_is_installed():
    assert SCRIPT.exists(), "pip install -e . installs the pwscup console script"


def test_login_keeps_the_token_readable_by_its_owner_only(world, live_server, tmp_path):
    token = api_token_create(user=world.users["a"], name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=tmp_path, stdin=token)
    assert login.returncode == 0, login.stderr
    path = tmp_path / "credentials.json"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text()) == {"url": live_server.url, "token": token}
    wrong = run(["login", live_server.url, "--token-stdin"], config_dir=tmp_path, stdin="pws_x")
    assert wrong.returncode == 1
    assert "authentication_failed" in wrong.stderr
    assert json.loads(path.read_text())["token"] == token  # a refused token is not stored


def test_submit_wait_prints_the_scoring_table_and_the_loop_goes_on(
    world, logged_in, celery_worker_process, tmp_path
):
    round_ref = f"{world.competition.slug}/{world.round.slug}"
    home_a, home_b = logged_in["a"], logged_in["b"]
    anonymized = home_a / "anonymized.csv"
    anonymized.write_bytes(noisy_copy(world.original, seed=3, delete=2))

    submitted = run(
        ["submit", round_ref, str(anonymized), "--note", "k=5", "--wait"], config_dir=home_a
    )
    assert submitted.returncode == 0, submitted.stderr
    assert "it is being scored" in submitted.stderr
    assert submitted.stderr.rstrip().endswith(": finished")  # the progress lines

    # The same table as the scoring command on the downloaded original and configuration.
    data = run(["data", round_ref, "-o", "data"], config_dir=home_a)
    assert data.returncode == 0, data.stderr
    assert (home_a / "data" / "r1_original.csv").read_bytes() == world.original
    assert json.loads((home_a / "data" / "r1_config.json").read_text()) == round_scoring_config(
        round=world.round
    )
    local = subprocess.run(
        [sys.executable, "-m", "scoring", "evaluate", "data/r1_original.csv", "anonymized.csv"]
        + ["--config", "data/r1_config.json"],
        capture_output=True,
        text=True,
        cwd=home_a,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert local.returncode == 0, local.stderr
    assert submitted.stdout == local.stdout

    # An invalid file: FAILED, exit 2, the reason on stderr.
    broken = home_a / "broken.csv"
    broken.write_text("age,workclass\n1,2,3\n")
    failed = run(["submit", round_ref, str(broken), "--wait"], config_dir=home_a)
    assert failed.returncode == 2, failed.stdout
    assert "failed:" in failed.stderr

    status = run(["status", round_ref], config_dir=home_a)
    assert status.returncode == 0, status.stderr
    assert "finished" in status.stdout and "failed" in status.stdout and "k=5" in status.stdout
    assert run(["status"], config_dir=home_a).stdout.count(round_ref) == 1

    # The leaderboard is private until the organizer opens it: the server's message, exit 1.
    private = run(["leaderboard", round_ref], config_dir=home_b)
    assert private.returncode == 1
    assert "not public" in private.stderr
    world.anonymization.leaderboard_public = True
    world.anonymization.save()
    board = run(["leaderboard", round_ref], config_dir=home_b)
    assert board.returncode == 0, board.stderr
    assert "Team A" in board.stdout

    # Attack phase: team B downloads A's target and attacks it with the right answer.
    freeze(world)
    target = Target.objects.get(round=world.round, team=world.teams["a"])
    downloads = home_b / "targets"
    listed = run(["targets", round_ref, "--download", str(downloads)], config_dir=home_b)
    assert listed.returncode == 0, listed.stderr
    # Each target's files in its own folder; never the team's own target.
    saved = downloads / "teamA" / "teamA_anonymized.csv"
    assert saved.read_bytes() == read_field(target.published_file)
    assert [p.name for p in downloads.iterdir()] == ["teamA"]
    answer = home_b / "answer.csv"
    answer.write_bytes(answer_bytes(truth_of(target)))
    attacked = run(["attack", round_ref, "teamA", str(answer), "--wait"], config_dir=home_b)
    assert attacked.returncode == 0, attacked.stderr
    assert "re-identification rate 1.0000" in attacked.stdout


def test_usage_errors(tmp_path):
    not_logged_in = run(["status"], config_dir=tmp_path)
    assert not_logged_in.returncode == 2
    assert "pwscup login" in not_logged_in.stderr
    bad_round = run(["leaderboard", "no-slash"], config_dir=tmp_path)
    assert bad_round.returncode == 2
    assert "COMPETITION/ROUND" in bad_round.stderr
