"""A short run of benchmarks/bench_upload.py (upload → scores in the browser, in small): one
team, a 1,000-row round, two uploads, on production settings (gunicorn, a Celery worker,
PostgreSQL, Redis), driven in Debian's Chromium as a team member does: the round page's
invitation to log in, the round page's Submit tab, its upload form, the page's own poll.
A moved tab, form or poll fails this test.

Correctness only, from the run's JSON: every upload was seen finished with its scores in
the page. Timings are never asserted (the exit status is 1 when the benchmark's timing
target is missed, so it is not asserted either; see benchmarks/README.md for the figures).

Slow (over 20 s on its own, so its module is scheduled first): the benchmark boots the
production stack on a migrated 1,000-row round and drives Debian's Chromium through two uploads
until their scores show.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.e2e, pytest.mark.worker]


def test_a_small_upload_run_sees_every_upload_scored_in_the_browser(tmp_path):
    if not Path("/usr/bin/chromium").exists():
        pytest.fail("/usr/bin/chromium is missing: install Debian's chromium package")
    figures_path = tmp_path / "upload.json"
    database = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pwscup")
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_upload.py"),
            *("--rows", "1000", "--runs", "1", "--workers", "1"),
            *("--database", database.rsplit("/", 1)[0]),
            *("--json", str(figures_path)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    # 0 or 1 (the timing target met or missed); a crash leaves no figures.
    assert run.returncode in (0, 1), run.stdout[-3000:] + run.stderr[-3000:]
    assert figures_path.exists(), run.stdout[-3000:] + run.stderr[-3000:]
    figures = json.loads(figures_path.read_text())
    assert figures["rows"] == 1000
    assert [r["status"] for r in figures["runs"]] == ["finished", "finished"], figures
    # Each upload went through the queue and the worker before the page showed its scores.
    for r in figures["runs"]:
        assert r["queue"] >= 0 and r["score"] > 0 and r["total"] > 0, r
