"""``pwscup status|download|submit --wait|leaderboard`` on a round scored by the organizer's
program: a live test server, the real Celery worker on Redis (its runs in the real sandbox),
the client in its own process. The client knows no kind: it follows the round's status (a
release, then an attack whose ``target`` field it fills from ``--field``)."""

import zipfile

import pytest

from pwscup.api.services import api_token_create
from pwscup.scorer import services
from pwscup.scorer.models import Attack, Release
from tests.pwscup.scorer_world import (
    attack_phase,
    guess_bytes,
    release,
    release_bytes,
    scorer_world,
)
from tests.support import run_pwscup as run

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def log_in(live_server, user, home) -> None:
    home.mkdir()
    token = api_token_create(user=user, name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token)
    assert login.returncode == 0, login.stderr


def test_a_scorer_round_through_the_client(live_server, celery_worker_process, tmp_path):
    world = scorer_world(slug="scocli", letters="abc")
    home = tmp_path / "a"
    log_in(live_server, world.users["a"], home)
    ref = f"{world.competition.slug}/{world.round.slug}"

    status = run(["status", ref], config_dir=home)
    assert status.returncode == 0, status.stderr
    assert "No upload yet." in status.stdout
    data = run(["download", ref, "-o", "data"], config_dir=home)
    assert data.returncode == 0, data.stderr
    assert sorted(p.name for p in (home / "data").iterdir()) == ["public.zip", "teama_slot.zip"]
    assert zipfile.ZipFile(home / "data" / "teama_slot.zip").namelist() == ["mine.txt"]

    # A release: the one open submission type; the worker runs the program on it.
    (home / "release.csv").write_bytes(release_bytes(noise=20, seed=1))
    submitted = run(["submit", ref, "release.csv", "--wait"], config_dir=home)
    assert submitted.returncode == 0, submitted.stderr
    assert submitted.stderr.rstrip().endswith(": finished")
    kept = Release.objects.get(team=world.teams["a"])
    assert kept.status == Release.Status.FINISHED
    line = next(line for line in submitted.stdout.splitlines() if "Utility" in line)
    assert repr(float(kept.scores["utility"])) in line

    # The attack phase: two targets, so the client asks for one (--field target=…).
    release(world, "b", release_bytes(noise=0))
    release(world, "c", release_bytes(noise=5, seed=3))
    targets = attack_phase(world)
    (home / "guess.csv").write_bytes(guess_bytes(targets["teamb"]))
    ambiguous = run(["submit", ref, "guess.csv", "--type", "attack"], config_dir=home)
    assert ambiguous.returncode == 2 and "teamb, teamc" in ambiguous.stderr
    attacked = run(
        ["submit", ref, "guess.csv", "--type", "attack", "--field", "target=teamb", "--wait"],
        config_dir=home,
    )
    assert attacked.returncode == 0, attacked.stderr
    scored = Attack.objects.get(team=world.teams["a"])
    assert scored.status == Attack.Status.FINISHED and scored.target.team.slug == "teamb"
    status = run(["status", ref], config_dir=home)
    attacks = status.stdout[status.stdout.index("\nattack: ") :]  # the attacks' own table
    upload_line = next(line for line in attacks.splitlines() if line.startswith("#1 "))
    assert "Team B" in upload_line and "finished" in upload_line

    # The rankings: after the publication only.
    early = run(["leaderboard", ref], config_dir=home)
    assert early.returncode == 1 and "[not_found]" in early.stderr
    services.results_publish(scorer=world.scorer, user=world.organizer)
    board = run(["leaderboard", ref], config_dir=home)
    assert board.returncode == 0, board.stderr
    assert "Team A" in board.stdout and "Team B" in board.stdout and "Utility" in board.stdout

    ja = run(["status", ref], config_dir=home, language="ja")
    assert ja.returncode == 0 and "あなたのアップロード" in ja.stdout
