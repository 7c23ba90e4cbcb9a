"""The synthetic benchmark's smoke run: small sizes, one repetition; it prints every figure
(so a moved function breaks this test, not a benchmark nobody runs)."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_synthetic_smoke_prints_every_figure():
    run = subprocess.run(
        [
            sys.executable,
            str(ROOT / "benchmarks" / "bench_synthetic.py"),
            *("--train", "300", "--holdout", "500", "--challenge", "80", "--aux", "300"),
            *("--repeat", "1"),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    for label in (
        "release, first of a team",
        "release, later ones",
        "built-in attacks",
        "a team's attack",
    ):
        assert label in run.stdout
    assert "U_ML" in run.stdout and "DCR attack final AUC" in run.stdout
