"""``python -m scoring scorer run``: the program's ZIP in, the result as JSON out."""

import json
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SCORE = """
import json, sys
rows = open(sys.argv[1] + "/res/sub.csv").read().split()
if not rows:
    print("the submission is empty")
    sys.exit(2)
json.dump({"rows": len(rows)}, open(sys.argv[2] + "/scores.json", "w"))
"""


def _cli(*arguments):
    return subprocess.run(
        [sys.executable, "-m", "scoring", *arguments],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )


def test_scorer_run_prints_the_scores_and_fills_the_output_folder(place, sandbox_base):
    program = place / "program.zip"
    with zipfile.ZipFile(program, "w") as archive:
        archive.writestr("metadata", "command: python3 $program/score.py $input $output\n")
        archive.writestr("score.py", SCORE)
    submission = place / "sub.csv"
    submission.write_text("a\nb\n")
    common = ["--program", str(program), "--cache", str(sandbox_base / "envs"), "--timeout", "20"]
    run = _cli(
        "scorer", "run", *common, "--submission", str(submission), "--output", str(place / "out")
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert (summary["status"], summary["scores"]) == ("ok", {"rows": 2})
    assert json.loads((place / "out" / "scores.json").read_text()) == {"rows": 2}
    submission.write_text("")
    refused = _cli(
        "--lang",
        "ja",
        "scorer",
        "run",
        *common,
        "--submission",
        str(submission),
        "--output",
        str(place / "o2"),
    )
    assert refused.returncode == 1
    assert "終了ステータス 2" in refused.stderr and "the submission is empty" in refused.stderr
