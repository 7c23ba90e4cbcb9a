"""A short run of benchmarks/bench_tabs.py (every kind's tabs, CPU per request): the demo
competition on the production stack (gunicorn, a Celery worker, PostgreSQL, Redis), a team
member logged in through the login form, each round's five tabs opened by the links the round
page gives. A moved tab link or a tab that stops answering 200 fails this test.

Correctness only, from the run's JSON: every tab of every demo round was found by its link
and answered 200. Timings are never asserted (see benchmarks/README.md for the figures).

Slow (over 20 s on its own, so its module is scheduled first): the benchmark boots the
production stack and loads the demo.
"""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.worker]


def test_every_kinds_tabs_answer_through_their_links(tmp_path):
    figures_path = tmp_path / "tabs.json"
    database = os.environ.get("TEST_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/pwscup")
    run = subprocess.run(
        [
            sys.executable,
            str(REPO / "benchmarks" / "bench_tabs.py"),
            *("--requests", "1", "--no-scores"),
            *("--database", database.rsplit("/", 1)[0]),
            *("--json", str(figures_path)),
        ],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    rows = json.loads(figures_path.read_text())["tabs"]
    kinds = {row["kind"] for row in rows}
    assert {"pwscup2015", "sequential", "dp", "synthetic", "scorer"} <= kinds
    assert len(rows) == 5 * len({row["round"] for row in rows})
    assert all(row["linked"] and row["statuses"] == [200] for row in rows), rows
    assert all(row["ms_per_request"] >= 0 for row in rows)
