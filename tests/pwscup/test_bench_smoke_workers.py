"""A short run of benchmarks/bench_workers.py (worker hosts and the bucket, in small): 6
uploads of a 1,000-row round scored by 1 and then 2 worker hosts (network namespaces, every
file in moto's S3 server), and one repetition of the bucket against the local disk.

Correctness only, from its output: every upload scored on one of the hosts and none failed,
every row of the bucket's table printed. Timings are never asserted (see benchmarks/README.md
for the figures).

Slow (over 20 s on its own, so its module is scheduled first): the benchmark starts worker
hosts at each count and scores every upload on each.
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.hosts import unavailable_reason

REPO = Path(__file__).resolve().parents[2]

pytestmark = [pytest.mark.slow, pytest.mark.worker]

STEPS = (
    "store the upload",
    "read the upload",
    "read the original",
    "job, original prepared",
    "first job of a process",
    "first job of a new host",
)


def test_a_small_workers_run_scores_every_upload_on_every_host_count():
    if reason := unavailable_reason():
        pytest.fail(reason)
    run = subprocess.run(
        [sys.executable, str(REPO / "benchmarks" / "bench_workers.py")]
        + ["--sizes", "1000", "--uploads", "6", "--hosts", "1,2", "--cost-runs", "1"],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,  # a hang, not a timing
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    out = run.stdout
    rows = re.findall(
        r"^ +1,000 +(\d) +(\d+) +[\d.]+ +[\d.]+ +[\d.]+ +(\d+)  (.+)$", out, re.MULTILINE
    )
    assert [(hosts, uploads, failed) for hosts, uploads, failed, _ in rows] == [
        ("1", "6", "0"),
        ("2", "6", "0"),
    ], out
    for hosts, _uploads, _failed, spread in rows:
        jobs = dict(part.split() for part in spread.split(", "))
        # Every job ran on one of the hosts (how they shared them is not asserted).
        assert set(jobs) <= {f"w{k}" for k in range(1, int(hosts) + 1)}, spread
        assert sum(map(int, jobs.values())) == 6, spread
    for step in STEPS:
        assert re.search(rf"^{re.escape(step)} +[\d.]+ +[\d.]+ +[+-][\d.]+$", out, re.M), step
