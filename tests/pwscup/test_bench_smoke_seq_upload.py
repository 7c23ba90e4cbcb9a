"""A short run of benchmarks/bench_seq_upload.py (a sequential release uploaded through the
page, in small): the paper's 16 persons and 40 persons × 2 releases, each release uploaded
as a browser does (the round page, its Submit tab, the tab's upload form) and checked as the
worker does. A moved tab or form fails this test.

Correctness only, from its output: every upload was checked and finished. Timings are never
asserted (see docs/sequential.md for the figures)."""

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def test_a_small_sequential_upload_run_finishes_every_release():
    # A database of its own, not this session's test database.
    name = os.environ.get("TEST_DATABASE_NAME", "test_pwscup") + "_smoke_seq"
    # Its test database is a copy of the suite's migrated template (tests/migrated.py): what
    # the run proves is the pages and the forms, not the migrations (every other test's
    # database is made the same way).
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_seq_upload.py")]
        + ["--sizes", "40x2", "--from-template"],
        cwd=REPO,
        env={**os.environ, "TEST_DATABASE_NAME": name},
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    lines = run.stdout.splitlines()
    assert len(lines) == 2, run.stdout
    for line, label in zip(lines, ("paper (16 persons)", "40 persons × 2"), strict=True):
        assert line.startswith(label), line
        assert re.search(r"request +\d+\.\d ms, check +\d+ ms; 2/2 uploads finished$", line), line
