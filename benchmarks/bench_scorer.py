"""The platform's cost around an organizer's scoring program (issue 49's budget).

Around each run the platform unpacks the program's ZIP and the submission's, starts the
sandbox, reads the output and hands the scores back; the budget is 10 % of the program's
own time or 0.3 s, whichever is larger, with the environment already built. The program
here works (a CPU loop) for ``--work-seconds`` and reports its own time in its scores
(from its first statement to its last, so the interpreter's start is counted as ours).
Each run is measured whole, from the program's ZIP to the result:

* ``total``: unpack the program + :func:`scoring.scorer.scorer_run` (stage, unzip the
  submission, sandbox, read the output);
* ``sandbox``: the sandbox's run (bwrap's start, the interpreter's start, the program);
* ``own``: the program's own time, as it measured it;
* ``overhead`` = ``total - own``, against ``budget`` = max(0.1 * own, 0.3).

A first row runs ``true`` (no interpreter) to show the sandbox's start alone. Storing the
scores is the round kind's one UPDATE, not measured here.

Usage::

    .venv/bin/python benchmarks/bench_scorer.py                      # 2 s of work, 5 runs
    .venv/bin/python benchmarks/bench_scorer.py --work-seconds 0.2 --runs 2 --submission-mb 1
"""

from __future__ import annotations

import argparse
import io
import json
import shutil
import statistics
import sys
import tempfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.scorer import environment_ensure, program_unpack, scorer_run  # noqa: E402
from scoring.scorer.limits import SandboxLimits  # noqa: E402

WORKER = """
import json, sys, time
started = time.perf_counter()
rows = 0
for name in __import__("os").listdir(sys.argv[1] + "/res"):
    with open(sys.argv[1] + "/res/" + name, "rb") as f:
        rows += sum(1 for _ in f)
n = 0
while time.perf_counter() - started < float(sys.argv[3]):
    n += 1
own = time.perf_counter() - started
json.dump({"rows": rows, "loops": n, "own_seconds": own}, open(sys.argv[2] + "/scores.json", "w"))
"""


def _program_zip(folder: Path, command: str, files: dict[str, str]) -> Path:
    path = folder / "program.zip"
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("metadata", f"command: {command}\n")
        for name, text in files.items():
            archive.writestr(name, text)
    return path


def _submission_zip(folder: Path, megabytes: float) -> Path:
    line = b"17,Private,Bachelors,13,Never-married,Adm-clerical,Not-in-family,White,Male\n"
    body = line * int(megabytes * 2**20 / len(line))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("anonymized.csv", body)
    path = folder / "submission.zip"
    path.write_bytes(buffer.getvalue())
    return path


def measure(base: Path, program_zip: Path, submission: Path, environment, n: int) -> dict:
    started = time.monotonic()
    program = program_unpack(program_zip, base / f"program-{n}")
    result = scorer_run(
        program,
        environment=environment,
        work=base / f"run-{n}",
        submission=submission,
        limits=SandboxLimits(timeout_seconds=600),
    )
    total = time.monotonic() - started
    # /bin/true writes no scores.json (refused as such): its run is timed all the same.
    if result.status != "ok" and result.code != "scorer.scores.missing":
        raise SystemExit(f"run {n}: {result.render('en')}")
    own = float(result.scores.get("own_seconds", 0.0))
    return {
        "total": total,
        "sandbox": result.program_seconds,
        "own": own,
        "overhead": total - own,
        "budget": max(0.1 * own, 0.3),
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--work-seconds", type=float, default=2.0)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--submission-mb", type=float, default=10.0)
    parser.add_argument("--json", default=None, help="write the rows to this file")
    args = parser.parse_args(argv)
    base = Path(tempfile.mkdtemp(prefix="pwscup-bench-scorer-"))
    base.chmod(0o755)
    try:
        environment = environment_ensure("", cache=base / "envs")  # built before timing
        submission = _submission_zip(base, args.submission_mb)
        (base / "true").mkdir()
        (base / "work").mkdir()
        command = f"python3 $program/score.py $input $output {args.work_seconds}"
        cases = {
            "/bin/true (the sandbox alone)": _program_zip(base / "true", "/bin/true", {}),
            f"python, {args.work_seconds:g} s of work": _program_zip(
                base / "work", command, {"score.py": WORKER}
            ),
        }
        rows = []
        print(
            f"submission ZIP {submission.stat().st_size / 2**10:.0f} KB ({args.submission_mb:g} MB of CSV)"
        )
        print(
            f"{'case':<30} {'total s':>8} {'sandbox s':>9} {'own s':>7} {'overhead s':>10} {'budget s':>8}"
        )
        for case, program_zip in cases.items():
            measured = []
            for n in range(args.runs):
                number = len(rows) * 1000 + n
                measured.append(measure(base, program_zip, submission, environment, number))
            row = {key: statistics.median(m[key] for m in measured) for key in measured[0]}
            row |= {
                "case": case,
                "runs": args.runs,
                "within_budget": row["overhead"] <= row["budget"],
            }
            rows.append(row)
            print(
                f"{case:<30} {row['total']:>8.3f} {row['sandbox']:>9.3f} {row['own']:>7.3f} "
                f"{row['overhead']:>10.3f} {row['budget']:>8.3f}"
            )
        if args.json:
            Path(args.json).write_text(json.dumps(rows, indent=2))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
