"""``python -m scoring scorer run --kind ranking --attacks DIR``: an organizer tries a ranking
program that reads the counted attacks' files, mounted as a worker mounts them."""

import json
import zipfile
from pathlib import Path

import pytest

from tests.scoring.scorer.cli_runs import scoring_cli

METADATA = "ranking_command: python3 $program/rank.py $input $output\n"
# Each attacker's number is the ones of its answer; each release's, its utility; what the
# program saw under input/attacks/, and whether it could write there, in seen.json.
RANK = """
import json, os, sys
top = sys.argv[1] + "/attacks"
standings = json.load(open(sys.argv[1] + "/res/standings.json"))
teams, seen = {}, []
for attacker in sorted(os.listdir(top)):
    for upload in sorted(os.listdir(os.path.join(top, attacker))):
        folder = os.path.join(top, attacker, upload)
        for root, _, files in os.walk(folder):
            seen += [os.path.relpath(os.path.join(root, name), top) for name in files]
        ones = sum(int(x) for x in open(os.path.join(folder, "answer.csv")).read().split())
        release = standings["releases"][attacker]["utility"]
        teams[attacker] = {"release": release, "attack": ones}
try:
    open(os.path.join(top, "teama", "1", "scribble.txt"), "w").write("x")
    mode = "written"
except OSError:
    mode = "read-only"
json.dump({"seen": sorted(seen), "mode": mode}, open(sys.argv[2] + "/seen.json", "w"))
json.dump({"targets": teams}, open(sys.argv[2] + "/scores.json", "w"))
"""


def _ranking(trial, attacks, out, lang="en"):
    """A trial ranking run with ``--attacks``, its messages in ``lang``."""
    return scoring_cli(
        "--lang", lang, "scorer", "run", *trial, "--kind", "ranking",
        "--attacks", str(attacks), "--output", str(out),
    )  # fmt: skip


def _file(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


@pytest.fixture
def trial(place, sandbox_base):
    """The program, standings.json and the options every run shares."""
    program = place / "program"
    _file(program / "metadata", METADATA)
    _file(program / "rank.py", RANK)
    utilities = {"teama": 0.9, "teamb": 0.8, "teamc": 0.7}
    standings = {"releases": {team: {"utility": u} for team, u in utilities.items()}}
    submission = _file(place / "standings.json", json.dumps(standings))
    return [
        *("--program", str(program), "--submission", str(submission)),
        *("--cache", str(sandbox_base / "envs"), "--timeout", "20"),
    ]


def _attacks(place) -> Path:
    """teama's upload a CSV file, teamb's a ZIP (as the team sent it), teamc's laid out."""
    attacks = place / "attacks"
    _file(attacks / "teama" / "1" / "answer.csv", "1\n0\n1\n")
    zipped = attacks / "teamb" / "7" / "answer.zip"
    zipped.parent.mkdir(parents=True)
    with zipfile.ZipFile(zipped, "w") as archive:
        archive.writestr("answer.csv", "1\n1\n1\n1\n")
        archive.writestr("notes/how.txt", "by hand\n")
    _file(attacks / "teamc" / "3" / "answer.csv", "0\n1\n")
    _file(attacks / "teamc" / "3" / "model.json", "{}\n")
    return attacks


def test_a_ranking_program_reads_the_attacks_as_on_a_worker(place, trial):
    attacks = _attacks(place)
    run = _ranking(trial, attacks, place / "out")
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert summary["status"] == "ok", summary
    assert summary["targets"] == {
        "teama": {"release": 0.9, "attack": 2},
        "teamb": {"release": 0.8, "attack": 4},
        "teamc": {"release": 0.7, "attack": 1},
    }
    out = json.loads((place / "out" / "scores.json").read_text())
    assert out["targets"]["teamb"] == {"release": 0.8, "attack": 4}
    # The ZIP is unpacked as the worker unpacks a counted upload, the rest is as given.
    seen = json.loads((place / "out" / "seen.json").read_text())
    assert seen == {
        "seen": [
            "teama/1/answer.csv",
            "teamb/7/answer.csv",
            "teamb/7/notes/how.txt",
            "teamc/3/answer.csv",
            "teamc/3/model.json",
        ],
        "mode": "read-only",
    }
    assert not (attacks / "teama" / "1" / "scribble.txt").exists()
    assert sorted(p.name for p in (attacks / "teamb" / "7").iterdir()) == ["answer.zip"]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_attacks_with_another_kind_is_refused(place, trial, lang):
    run = scoring_cli(
        "--lang", lang, "scorer", "run", *trial, "--kind", "attack",
        "--attacks", str(_attacks(place)), "--output", str(place / "out"),
    )  # fmt: skip
    assert run.returncode == 2
    assert "--attacks" in run.stderr and "--kind ranking" in run.stderr, run.stderr
    assert "--kind attack" in run.stderr and ("順位付け" in run.stderr) == (lang == "ja")
    assert not (place / "out").exists()


def test_a_missing_attacks_folder_is_named(place, trial):
    missing = place / "no-such-folder"
    for lang, words in (("en", "does not exist"), ("ja", "ありません")):
        run = _ranking(trial, missing, place / "out", lang)
        assert run.returncode == 2
        assert str(missing) in run.stderr and words in run.stderr, run.stderr


@pytest.mark.parametrize(
    ("wrong", "at_fault"),
    [
        ("answer.csv", "answer.csv"),  # a file where an attacker's folder belongs
        ("teama/answer.csv", "teama/answer.csv"),  # a file where an upload's folder belongs
        (".DS_Store", ".DS_Store"),  # a name that is no team's
        ("teama/-1/answer.csv", "teama/-1"),  # an upload's name that is not one
    ],
)
def test_an_attacks_folder_laid_out_otherwise_names_the_path(place, trial, wrong, at_fault):
    attacks = _attacks(place)
    _file(attacks / wrong, "1\n")
    at_fault = attacks / at_fault
    for lang, words in (("en", "laid out"), ("ja", "フォルダ")):
        run = _ranking(trial, attacks, place / "out", lang)
        assert run.returncode == 2
        assert str(at_fault) in run.stderr and words in run.stderr, run.stderr


def test_a_damaged_zip_in_the_attacks_folder_names_its_path(place, trial):
    attacks = _attacks(place)
    damaged = attacks / "teama" / "2" / "answer.zip"
    damaged.parent.mkdir()
    damaged.write_bytes(b"PK\x03\x04 not really a zip")
    run = _ranking(trial, attacks, place / "out")
    assert run.returncode == 2
    assert str(damaged) in run.stderr and "ZIP" in run.stderr, run.stderr
