"""The scorer benchmark's smoke run: both cases measured, every figure present (its speed is
the benchmark's business, not the suite's: nothing here depends on the machine's speed)."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_bench_scorer_smoke_measures_both_cases(tmp_path):
    figures = tmp_path / "scorer.json"
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_scorer.py"),
            *("--work-seconds", "0.2", "--runs", "1", "--submission-mb", "1"),
            *("--json", str(figures)),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    rows = json.loads(figures.read_text())
    assert [row["case"].split(" ")[0] for row in rows] == ["/bin/true", "python,"]
    for row in rows:
        assert row["total"] >= row["sandbox"] > 0 and row["budget"] >= 0.3
    assert rows[1]["own"] >= 0.2
    assert "overhead s" in run.stdout
