"""The scorer round benchmark's smoke run: one job measured through the round's services on
the production settings, every figure present, and a second program version with unchanged
requirements reusing the first one's environment (its speed is the benchmark's business, not
the suite's: nothing here depends on the machine's speed)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_scorer_round_smoke_measures_a_job(tmp_path):
    figures = tmp_path / "scorer_round.json"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_scorer_round.py"),
            *("--work-seconds", "0.2", "--runs", "1", "--rows", "1000"),
            *("--json", str(figures)),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    row = json.loads(figures.read_text())
    assert row["job"] >= row["sandbox"] > 0
    assert row["own"] >= 0.2 and row["budget"] >= 0.3
    assert row["same_environment"] is True
    assert "overhead s" in run.stdout
