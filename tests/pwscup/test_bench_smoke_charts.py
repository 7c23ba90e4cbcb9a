"""The chart benchmark's smoke run: a few teams, one repetition; every figure printed (a
moved chart function breaks this test, not a benchmark nobody runs)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_charts_smoke_prints_every_size():
    run = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_charts.py"), "--teams", "5", "12"]
        + ["--repeat", "1"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 4
    assert "   5 teams spread" in lines[0] and "labels 5" in lines[0]
    assert "  12 teams crowded" in lines[3] and "labels 12" in lines[3]
