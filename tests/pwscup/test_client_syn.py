"""``pwscup status|submit --wait`` in a synthetic round (a live test server, the real Celery
worker, the client in its own process): ``submit --wait`` prints a finished upload's message
(a release failing the copy gate), ``status`` lists each upload type's ``--type`` key, label
and fields with their choices, the scores the round's metrics mark (``R_copy(H)`` beside
``R_copy``), and "(final)" only beside a type the team chooses its final upload of."""

import pytest

from pwscup.api.services import api_token_create
from pwscup.synthetic.kit import team_train_text
from tests.pwscup.syn_world import (
    attack,
    baseline_release,
    dcr_answer_bytes,
    freeze,
    open_attack_phase,
    release,
    syn_world,
)
from tests.support import run_pwscup as run

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def line_of(output: str, start: str) -> str:
    return next(line for line in output.splitlines() if line.startswith(start))


def test_a_synthetic_round_through_the_client(live_server, celery_worker_process, tmp_path):
    world = syn_world(slug="syncli", letters="ab")
    home = tmp_path / "a"
    home.mkdir()
    token = api_token_create(user=world.users["a"], name="cli").secret
    login = run(["login", live_server.url, "--token-stdin"], config_dir=home, stdin=token)
    assert login.returncode == 0, login.stderr
    ref = f"{world.competition.slug}/{world.round.slug}"

    # What the round takes: the release, open now, its --type key and label.
    status = run(["status", ref], config_dir=home)
    assert status.returncode == 0, status.stderr
    types = status.stdout[status.stdout.index("What this round takes") :]
    assert line_of(types, "--type").split()[:3] == ["--type", "open", "now"]
    assert line_of(types, "release ").split() == [
        "release",
        "yes",
        *"A synthetic release (teamX_synthetic.csv)".split(),
    ]

    # An honest release (final), then the team's own members: kept and scored (exit 0), the
    # message saying it fails the copy gate printed after the scores.
    release(world, "a", baseline_release(world, "a"))
    release(world, "b", baseline_release(world, "b"))
    members = team_train_text(synthetic=world.synthetic, team=world.teams["a"])
    (home / "teamA_train.csv").write_text(members)
    copied = run(["submit", ref, "teamA_train.csv", "--wait"], config_dir=home)
    assert copied.returncode == 0, copied.stderr
    r_copy = line_of(copied.stdout, "r_copy ").split()[-1]
    r_copy_holdout = line_of(copied.stdout, "r_copy_holdout ").split()[-1]
    assert "copy gate" in copied.stderr and "R_copy = 1.0000" in copied.stderr
    assert copied.stderr.rstrip().splitlines()[-1].startswith("This release fails the copy gate")

    status = run(["status", ref], config_dir=home)
    releases = status.stdout[status.stdout.index("release: A synthetic release") :]
    header = line_of(releases, "#  ")
    # The platform's remark under its own heading; a release takes no note: no note column.
    # Each score under the round's name for it (the status's ``metrics``), not its key.
    assert header.split()[5:10] == ["U_ML", "U_1", "R_copy", "R_copy(H)", "remarks"]
    assert "finished (final)" in line_of(releases, "#1 ")
    copy_line = line_of(releases, "#2 ")
    assert "(final)" not in copy_line and "fails the gates" in copy_line
    assert f" {r_copy}  {r_copy_holdout} " in copy_line  # side by side

    # The attack phase: the attack's --type key, its field and the targets it takes.
    targets = freeze(world)
    open_attack_phase(world)
    attack(world, "a", targets["teamB"], dcr_answer_bytes(world, targets["teamB"]))
    status = run(["status", ref], config_dir=home)
    assert line_of(status.stdout, "release ").split()[1] == "no"
    attack_type = line_of(status.stdout, "attack ")
    assert attack_type.split()[1] == "yes" and attack_type.endswith("target=teamB")
    assert "A membership-inference attack on a target (id,score)" in attack_type
    # Each type's own table: the release's scores, then the attack's, after its title.
    releases = status.stdout[status.stdout.index("release: A synthetic release") :]
    attacks = status.stdout[status.stdout.index("attack: A membership-inference attack") :]
    assert status.stdout.index("release: ") < status.stdout.index("attack: ")
    assert "finished (final)" in line_of(releases, "#1 ")  # the chosen release
    assert line_of(attacks, "#  ").split()[5:7] == ["TPR@FPR≤0.1", "remarks"]
    attack_line = line_of(attacks, "#1 ")
    assert "finished" in attack_line and "(final)" not in attack_line and "Team B" in attack_line

    # An attack on a team with no target: the server's 404 names it.
    (home / "mia.csv").write_text("id,score\n")
    nobody = run(
        ["submit", ref, "mia.csv", "--type", "attack", "--field", "target=teamZ"], config_dir=home
    )
    assert nobody.returncode == 1
    assert "No published target of the team teamZ. Name one of: teamB. [not_found]" in (
        nobody.stderr
    )

    # In Japanese: the table's words.
    ja = run(["status", ref], config_dir=home, language="ja")
    assert "このラウンドが受け付ける提出" in ja.stdout and "現在受付中" in ja.stdout
    assert "完了 (最終)" in ja.stdout
    assert "備考" in ja.stdout and "メモ" not in ja.stdout
