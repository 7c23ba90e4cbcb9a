"""A short run of benchmarks/bench_dp_web.py (the DP round's pages, in small): on both demo
rounds, 3 queries, two releases and an estimate from each, sent through the level page's
forms as a browser sends them (the level reached from the round page's Submit tab), then the
close. A moved tab, link or form, or a form the page refuses, fails this test.

Correctness only, from its output: every query answered and charged once (the replays
charged nothing), both releases made and an estimate built from each, every figure printed.
Timings are never asserted (see docs/dp.md for the figures).

Slow (over 20 s on its own, so its module is scheduled first): the benchmark makes a
database of its own (a copy of the suite's migrated template) and plays both DP demo rounds
through the pages' forms.
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[2]


def test_a_small_dp_web_run_answers_every_query_through_the_forms():
    # A database of its own, not this session's test database.
    name = os.environ.get("TEST_DATABASE_NAME", "test_pwscup") + "_smoke_dp"
    # Its test database is a copy of the suite's migrated template (tests/migrated.py): what
    # the run proves is the pages and the forms, not the migrations (every other test's
    # database is made the same way).
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_dp_web.py")]
        + ["--queries", "3", "--from-template"],
        cwd=REPO,
        env={**os.environ, "TEST_DATABASE_NAME": name},
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = run.stdout
    assert out.startswith("dp-adult") and "\ndp-practice " in out, out
    # Per round: the warm-up, 3 timed queries and the counted one; 3 replays add nothing.
    assert out.count("queries answered: 5/5; after the replays: 5") == 2, out
    assert out.count("BT estimate of every target") == 2, out
    assert out.count("BR estimate of every target") == 2, out
    assert out.count("estimates from the releases: 2/2") == 2, out
    assert out.count("the level page after an answer") == 2, out
    assert out.count("the close (scores + baselines, 4 levels, 2 estimates)") == 2, out
