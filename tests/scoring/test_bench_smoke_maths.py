"""Smoke runs of the pure-maths benchmarks at small sizes (a few seconds each):
bench_scoring.py, bench_kit.py, bench_dp.py and bench_sequential.py. Each prints every figure
of every case, so a moved or renamed function breaks this test, not a benchmark nobody runs.

Correctness only, from their output: every case and every metric printed, the scores and rates
computed. Timings are never asserted (no timing target applies at these sizes; see
benchmarks/README.md and the manual's pages for the figures)."""

import re
import subprocess
import sys
from pathlib import Path

import scoring

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
CASES = ("normal", "match1", "nomatch")
# bench_scoring.py also scores a table of many distinct decimals (issue 38's parse case).
SCORING_CASES = (*CASES, "decimals")


def bench(script: str, *args: str) -> str:
    run = subprocess.run(
        [sys.executable, str(BENCHMARKS / script), *args],
        cwd=BENCHMARKS,
        capture_output=True,
        text=True,
        timeout=300,  # a hang, not a timing
        check=False,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    return run.stdout


def test_bench_scoring_smoke_scores_every_case_with_every_metric():
    out = bench("bench_scoring.py", "--sizes", "2000", "--repeats", "1")
    for case in SCORING_CASES:
        assert re.search(rf"^  {case} +pandas parse [\d.]+ s \| total [\d.]+ s", out, re.M), case
    scores = re.findall(r"^ +scores: (.+)$", out, re.M)
    assert len(scores) == len(SCORING_CASES), out
    for line in scores:
        assert {part.split("=")[0] for part in line.split(", ")} >= set(scoring.METRICS), line
    assert out.count("targets: none at this size") == len(SCORING_CASES), out
    assert out.rstrip().endswith("every target met"), out


def test_bench_kit_smoke_attacks_every_case():
    out = bench("bench_kit.py", "--sizes", "2000")
    rows = re.findall(
        r"^ +2,000 (\w+) +1,900 +[\d.]+ +[\d.]+ +([\d.]+) +[\d.]+ +no target$", out, re.M
    )
    assert [case for case, _rate in rows] == list(CASES), out
    assert all(0 < float(rate) <= 1 for _case, rate in rows), rows


def test_bench_dp_smoke_prints_every_step_of_every_epsilon():
    out = bench("bench_dp.py", "--sizes", "14", "--trials", "2")
    assert "== 14 cells: 6,040 rows, target gender_age with 14 cells" in out, out
    assert re.search(
        r"^query \(validate \+ ledger \+ truth \+ OpenDP noise\): +[\d.]+ ms", out, re.M
    )
    for step in ("release", "BR", "baselines"):
        assert len(re.findall(rf"^eps=[\d.]+ +{step}: +[\d.]+ ms", out, re.M)) == 3, (step, out)


def test_bench_sequential_smoke_prints_the_risk_and_the_report():
    out = bench("bench_sequential.py", "--persons", "200", "--releases", "3")
    assert out.startswith("200 persons, 3 releases,"), out
    for step in ("read + validate releases", "risk (attackers N and A)", "full report"):
        assert re.search(rf"^  {re.escape(step)} +[\d.]+ s$", out, re.M), step
    assert re.search(r"RN_max [\d.]+ +RN_mean [\d.]+ +RA_mean [\d.]+ +RN_over \d+", out), out
