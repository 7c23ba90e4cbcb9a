"""``python -m scoring scorer run``: the program's ZIP in, the result as JSON out."""

import json
import os
import zipfile

import pytest

from tests.scoring.scorer.cli_runs import scoring_cli

SCORE = """
import json, sys
rows = open(sys.argv[1] + "/res/sub.csv").read().split()
if not rows:
    print("the submission is empty")
    sys.exit(2)
json.dump({"rows": len(rows)}, open(sys.argv[2] + "/scores.json", "w"))
"""


def test_scorer_run_prints_the_scores_and_fills_the_output_folder(place, sandbox_base):
    program = place / "program.zip"
    with zipfile.ZipFile(program, "w") as archive:
        archive.writestr("metadata", "command: python3 $program/score.py $input $output\n")
        archive.writestr("score.py", SCORE)
    submission = place / "sub.csv"
    submission.write_text("a\nb\n")
    common = ["--program", str(program), "--cache", str(sandbox_base / "envs"), "--timeout", "20"]
    run = scoring_cli(
        "scorer", "run", *common, "--submission", str(submission), "--output", str(place / "out")
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads(run.stdout)
    assert (summary["status"], summary["scores"]) == ("ok", {"rows": 2})
    assert json.loads((place / "out" / "scores.json").read_text()) == {"rows": 2}
    submission.write_text("")
    refused = scoring_cli(
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


READ_REFERENCE = """
import json, sys
rows = open(sys.argv[1] + "/ref/original.csv").read().split()
json.dump({"rows": len(rows)}, open(sys.argv[2] + "/scores.json", "w"))
"""


@pytest.mark.skipif(os.geteuid() != 0, reason="the sandbox runs as nobody only under root")
def test_a_private_reference_file_reads_as_on_a_worker(place, sandbox_base):
    # A reference folder unpacked by root (Python's zipfile writes members 0600): the worker's
    # packs are always readable by the sandbox's user, so the trial run must read it too,
    # not fail with a PermissionError the worker would never give.
    program = place / "program"
    program.mkdir(mode=0o700)
    (program / "metadata").write_text("command: python3 $program/score.py $input $output\n")
    (program / "score.py").write_text(READ_REFERENCE)
    (program / "score.py").chmod(0o600)
    submission = place / "sub.csv"
    submission.write_text("a\n")
    reference = place / "ref"
    reference.mkdir(mode=0o700)
    (reference / "original.csv").write_text("x\n1\n2\n")
    (reference / "original.csv").chmod(0o600)
    given = ["--program", str(program), "--submission", str(submission)]
    given += ["--reference", str(reference), "--cache", str(sandbox_base / "envs")]
    run = scoring_cli("scorer", "run", *given, "--output", str(place / "out"))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["scores"] == {"rows": 3}
    assert (reference / "original.csv").stat().st_mode & 0o777 == 0o600  # left as it was
