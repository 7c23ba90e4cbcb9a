"""An attack's targets: each frozen release bound read-only at /app/input/targets/<name>."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.messages import render

ROOT = Path(__file__).resolve().parents[3]
LIST_TARGETS = """
import json, os, sys
top = sys.argv[1] + "/targets"
seen = {}
for name in sorted(os.listdir(top)):
    seen[name] = open(os.path.join(top, name, "release.csv")).read().strip()
    try:
        open(os.path.join(top, name, "scribble.txt"), "w").write("x")
        print("WROTE", name)
    except OSError as error:
        print("read-only", name, error.errno)
print(json.dumps(seen))
json.dump({"count": len(seen)}, open(sys.argv[2] + "/scores.json", "w"))
"""


def _target(place, name, text):
    folder = place / "frozen" / name
    folder.mkdir(parents=True, mode=0o755)
    (place / "frozen").chmod(0o755)
    (folder / "release.csv").write_text(text)
    (folder / "release.csv").chmod(0o644)
    return folder


def test_each_target_is_bound_read_only_under_its_name(place, make_program, run_program):
    program = make_program(LIST_TARGETS)
    targets = {
        "team-a": _target(place, "alpha", "a\n"),
        "b_2": _target(place, "beta", "b\n"),
    }
    result = run_program(program, kind="attack", targets=targets)
    assert (result.status, result.scores) == ("ok", {"count": 2}), result.tail
    assert '{"b_2": "b", "team-a": "a"}' in result.tail
    assert "WROTE" not in result.tail and "read-only team-a" in result.tail
    assert not (place / "frozen" / "alpha" / "scribble.txt").exists()


def test_without_targets_there_is_no_targets_folder(make_program, run_program):
    program = make_program(
        """
        import json, os, sys
        there = os.path.exists(sys.argv[1] + "/targets")
        json.dump({"there": int(there)}, open(sys.argv[2] + "/scores.json", "w"))
        """
    )
    assert run_program(program).scores == {"there": 0}


@pytest.mark.parametrize("name", ["", "../x", "a/b", "-a", "_a", "a" * 65, "é", "Ａ"])
def test_a_target_name_that_is_not_a_slug_fails_the_run(name, place, make_program, run_program):
    program = make_program(LIST_TARGETS)
    result = run_program(program, kind="attack", targets={name: _target(place, "x", "x\n")})
    assert (result.status, result.code) == ("failed", "scorer.targets.name")
    assert result.tail == "" and not (place / "work" / "output" / "scores.json").exists()
    assert repr(name) in result.render("en") and "攻撃対象" in result.render("ja")


def test_a_slug_with_capitals_is_a_target_name(place, make_program, run_program):
    """Django's slugs (a team's address) may hold capitals: the demo's teams are teamA..."""
    program = make_program(LIST_TARGETS)
    result = run_program(program, kind="attack", targets={"teamB": _target(place, "x", "x\n")})
    assert result.status == "ok" and '"teamB": "x"' in result.tail


def test_the_longest_name_is_accepted(place, make_program, run_program):
    program = make_program(LIST_TARGETS)
    name = "0" + "a" * 63
    result = run_program(program, kind="attack", targets={name: _target(place, "x", "x\n")})
    assert result.status == "ok" and f'"{name}": "x"' in result.tail


def test_the_command_line_binds_each_target(place, sandbox_base):
    program = place / "program"
    program.mkdir(mode=0o755)
    (program / "metadata").write_text("command: python3 $program/score.py $input $output\n")
    (program / "score.py").write_text(LIST_TARGETS)
    _target(place, "alpha", "a\n")
    _target(place, "beta", "b\n")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "scoring",
            "scorer",
            "run",
            "--program",
            str(program),
            "--cache",
            str(sandbox_base / "envs"),
            "--kind",
            "attack",
            "--target",
            f"one={place / 'frozen' / 'alpha'}",
            "--target",
            f"two={place / 'frozen' / 'beta'}",
            "--output",
            str(place / "out"),
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["scores"] == {"count": 2}
    assert json.loads((place / "out" / "scores.json").read_text()) == {"count": 2}


def test_the_command_line_refuses_a_target_without_a_folder(place, sandbox_base):
    run = subprocess.run(
        [sys.executable, "-m", "scoring", "scorer", "run", "--program", str(place)]
        + ["--output", str(place / "out"), "--target", "one"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert run.returncode == 2 and "expected NAME=DIR" in run.stderr


def test_the_message_renders_in_both_languages():
    assert "'Bad'" in render("scorer.targets.name", {"name": "'Bad'"}, "en")
    assert "'Bad'" in render("scorer.targets.name", {"name": "'Bad'"}, "ja")


LIST_ATTACKS = """
import json, os, sys
top = sys.argv[1] + "/attacks"
seen = {}
for attacker in sorted(os.listdir(top)):
    for upload in sorted(os.listdir(os.path.join(top, attacker))):
        seen[attacker + "/" + upload] = open(os.path.join(top, attacker, upload, "release.csv")).read().strip()
try:
    open(os.path.join(top, "teamA", "7", "scribble.txt"), "w").write("x")
    print("WROTE")
except OSError as error:
    print("read-only", error.errno)
print(json.dumps(seen))
json.dump({"count": len(seen)}, open(sys.argv[2] + "/scores.json", "w"))
"""


def test_each_counted_attack_is_bound_read_only_under_its_attacker_and_upload(
    place, make_program, run_program
):
    program = make_program(LIST_ATTACKS)
    attacks = {"teamA/7": _target(place, "seven", "a\n"), "teamA/9": _target(place, "nine", "b\n")}
    result = run_program(program, kind="attack", attacks=attacks)
    assert (result.status, result.scores) == ("ok", {"count": 2}), result.tail
    assert '{"teamA/7": "a", "teamA/9": "b"}' in result.tail
    assert "WROTE" not in result.tail and "read-only" in result.tail


@pytest.mark.parametrize("name", ["teamA", "teamA/7/x", "../7", "teamA/..", "teamA/", "/7"])
def test_a_counted_attack_s_name_that_is_not_attacker_and_upload_fails_the_run(
    name, place, make_program, run_program
):
    program = make_program(LIST_ATTACKS)
    result = run_program(program, kind="attack", attacks={name: _target(place, "x", "x\n")})
    assert (result.status, result.code) == ("failed", "scorer.attacks.name")
    assert repr(name) in result.render("en") and "攻撃" in result.render("ja")
