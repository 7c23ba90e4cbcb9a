"""A short run of benchmarks/bench_stalled_bucket.py (field test 3 in small): the production
stack (gunicorn behind nginx, a Celery worker, PostgreSQL, Redis, moto's S3 server as the
bucket) with the bucket frozen by SIGSTOP for 5 s while two teams upload, a visitor reads and
/healthz is asked.

Correctness only, from the run's JSON; its timings are never asserted (see
benchmarks/README.md for the figures). The storage calls are given 1 s and one retry here
(production: 10 s and two), so uploads that reach the frozen bucket are refused within the
5 s and the refused path is exercised too.

Slow (over 20 s on its own, so its module is scheduled first): the benchmark boots the
production stack (a migrated database, nginx, gunicorn, a Celery worker, moto's S3 server) and
keeps the bucket frozen 5 s while the teams upload.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.worker, pytest.mark.proxy]


def test_a_short_freeze_loses_no_accepted_upload_and_keeps_nothing_it_refused(tmp_path):
    figures_path = tmp_path / "stalled.json"
    database = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pwscup")
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_stalled_bucket.py"),
            *("--freeze-seconds", "5", "--teams", "2", "--upload-every", "2"),
            # Load 3 s before the freeze (3 uploads, to be accepted) and 4 s after the thaw
            # (4 uploads, accepted and scored once the bucket answers; pages and /healthz
            # 2 s): both paths are taken as with the 5 s and 10 s of a full run.
            *("--lead-seconds", "3", "--tail-seconds", "4"),
            *("--database", database.rsplit("/", 1)[0]),
            *("--json", str(figures_path)),
        ],
        cwd=REPO,
        env={
            **os.environ,
            "PWSCUP_STORAGE_READ_TIMEOUT": "1",
            "PWSCUP_STORAGE_RETRIES": "1",
        },
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(figures_path.read_text())
    checks = figures["checks"]
    # Both paths were taken: uploads accepted (before the freeze, after the thaw) and
    # uploads refused while the bucket was frozen.
    assert checks["accepted"] >= 1, figures["uploads"]
    assert checks["refused 503"] >= 1, figures["uploads"]
    assert checks["accepted lost"] == []
    assert checks["refused but kept"] == []
    assert set(figures["uploads"]["by status"]) <= {"202", "503 storage_unavailable"}, figures[
        "uploads"
    ]
    # The visitor was answered every time; /healthz said 503 while the bucket was frozen.
    assert figures["visitor"]["count"] >= 5
    assert figures["visitor"]["not 200"] == 0
    assert figures["healthz"]["count"] >= 1
    assert figures["healthz"]["statuses"] == {"503": figures["healthz"]["count"]}
