"""A short run of benchmarks/bench_api.py (the REST API's cost per request, in small): 3
requests per endpoint, with a token and with the session, at the addresses the command-line
client uses (the paths it builds, the upload list's and an upload's from the round's
status). A moved endpoint, or one that no longer answers 200, fails this test.

Correctness only, from its output: every endpoint measured with both kinds of log-in and its
SQL queries counted. Timings are never asserted (see docs/api.md for the figures)."""

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

ENDPOINTS = (
    "me",
    "status",
    "round",
    "submissions (list)",
    "submission (detail)",
    "targets",
    "standings",
    "leaderboard",
    "final ranking",
)


def test_a_small_api_run_measures_every_endpoint_the_client_calls():
    # A database of its own, not this session's test database.
    name = os.environ.get("TEST_DATABASE_NAME", "test_pwscup") + "_smoke_api"
    # Its test database is a copy of the suite's migrated template (tests/migrated.py): what
    # the run proves is the pages and the forms, not the migrations (every other test's
    # database is made the same way).
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_api.py")]
        + ["--requests", "3", "--submissions", "3", "--from-template"],
        cwd=REPO,
        env={**os.environ, "TEST_DATABASE_NAME": name},
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    rows = {}
    for line in run.stdout.splitlines()[2:]:
        label, numbers = line[:22].strip(), line[22:].split()
        rows[(label, numbers[0])] = numbers[1:]
    assert set(rows) == {(e, auth) for e in ENDPOINTS for auth in ("token", "session")}, rows
    for key, (median, p95, queries) in rows.items():
        assert float(median) > 0 and float(p95) > 0, key
        assert int(queries) >= 1, key
