"""Benchmark of the scoring engine on generated 2015-shaped tables.

For every size it prints: generation and CSV write time, read time of both CSVs with
``scoring.read_table``, time of every metric, total ``evaluate`` time, the ratio of
the total to the parse time and the peak resident memory. Each measurement runs in a
fresh subprocess, so ``ru_maxrss`` is the peak of reading + scoring alone.

Cases (the submission always has 5 % deleted rows and 10 % noise on the SA):

``normal``   default round configuration (13 QI, match on all of them).
``match1``   ``match_qi = ["sex"]``: two huge matching classes (worst case for E1/E2/EUC).
``nomatch``  every kept row's QI combination is absent from X (household_size 1 with
             2 children never occurs in generated data), so EUC2 and E2 fall back to
             all rows for every row.

Usage::

    .venv/bin/python benchmarks/bench_scoring.py                       # 8,333 and 1,000,000 rows
    .venv/bin/python benchmarks/bench_scoring.py --quick               # 8,333 and 100,000 rows
    .venv/bin/python benchmarks/bench_scoring.py --sizes 8333,200000 --cases normal

Targets: 8,333 rows, all 14 metrics <= 0.5 s and <= 3x the CSV parse time;
1,000,000 rows <= 60 s and <= 4 GiB peak; worst cases near-linear in the row count.
Data are generated into a temporary directory and deleted afterwards.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CASES = ("normal", "match1", "nomatch")
TARGETS = {8_333: (0.5, 3.0, None), 1_000_000: (60.0, None, 4.0)}  # seconds, x parse, GiB


def _peak_gib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20  # Linux: KiB


def prepare(size: int, directory: Path) -> dict:
    """Generate X and the submissions of every case, write them as CSV."""
    import scoring
    from scoring.datasets import default_config_dict, generate_anonymized, generate_original

    started = time.perf_counter()
    original = generate_original(size, seed=2015)
    anonymized = generate_anonymized(original, seed=1, delete_fraction=0.05, sa_noise=0.1)
    nomatch = anonymized.copy()
    kept = ~(anonymized == "").all(axis=1).to_numpy()
    nomatch.loc[kept, "household_size"] = "1"
    nomatch.loc[kept, "children"] = "2"
    generated = time.perf_counter() - started
    assert not ((original["household_size"] == "1") & (original["children"] == "2")).any()

    started = time.perf_counter()
    scoring.write_csv(original, directory / "x.csv")
    scoring.write_csv(anonymized, directory / "a.csv")
    written = time.perf_counter() - started
    scoring.write_csv(nomatch, directory / "a_nomatch.csv")

    config = default_config_dict()
    (directory / "normal.json").write_text(json.dumps(config))
    (directory / "nomatch.json").write_text(json.dumps(config))
    (directory / "match1.json").write_text(json.dumps({**config, "match_qi": ["sex"]}))
    return {
        "generate_s": generated,
        "write_s": written,
        "csv_mib": (directory / "x.csv").stat().st_size / 2**20,
    }


def score(directory: Path, case: str) -> dict:
    """Read both CSVs and score them; run in a fresh interpreter."""
    import scoring

    submission = "a_nomatch.csv" if case == "nomatch" else "a.csv"
    started = time.perf_counter()
    original = scoring.read_table(directory / "x.csv", name="x.csv")
    read_x = time.perf_counter() - started
    started = time.perf_counter()
    anonymized = scoring.read_table(directory / submission, name=submission)
    read_a = time.perf_counter() - started
    config = scoring.load_config((directory / f"{case}.json").read_text(), original)

    timings: dict[str, float] = {}
    started = time.perf_counter()
    result = scoring.evaluate(original, anonymized, config, timings=timings)
    total = time.perf_counter() - started
    validate = timings.pop("validate", float("nan"))
    per_metric = timings
    return {
        "read_x_s": read_x,
        "read_a_s": read_a,
        "validate_s": validate,
        "evaluate_s": total,
        "per_metric_s": per_metric,
        "peak_gib": _peak_gib(),
        "scores": {k: result[k] for k in scoring.METRICS},
    }


def _child(args: list[str], timeout: float) -> dict:
    command = [sys.executable, __file__, *args]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr else "failed"}
    return json.loads(done.stdout.strip().splitlines()[-1])


def _report(size: int, case: str, prep: dict, run: dict) -> list[str]:
    if "error" in run:
        return [f"  {case:8s} ERROR: {run['error']}"]
    parse = run["read_x_s"] + run["read_a_s"]
    total = run["evaluate_s"]
    lines = [
        f"  {case:8s} read X {run['read_x_s']:.3f} s + A {run['read_a_s']:.3f} s = {parse:.3f} s"
        f" | validate {run['validate_s']:.3f} s | evaluate (validation + 14 metrics) {total:.3f} s"
        f" | evaluate/parse {total / parse:.2f}x | peak RSS {run['peak_gib']:.2f} GiB"
    ]
    if run["per_metric_s"]:
        parts = ", ".join(f"{k} {v:.3f}" for k, v in run["per_metric_s"].items())
        lines.append(f"           per metric (s): {parts}")
    target = TARGETS.get(size)
    if case == "normal" and target:
        seconds, ratio, gib = target
        verdict = [f"total {total:.3f} s <= {seconds} s: {'MET' if total <= seconds else 'MISSED'}"]
        if ratio:
            ok = total <= ratio * parse
            verdict.append(f"<= {ratio}x parse: {'MET' if ok else 'MISSED'}")
        if gib:
            ok = run["peak_gib"] <= gib
            verdict.append(f"peak <= {gib} GiB: {'MET' if ok else 'MISSED'}")
        lines.append("           targets: " + "; ".join(verdict))
    scores = ", ".join(
        f"{k}={v:.4g}" if v is not None else f"{k}=None" for k, v in run["scores"].items()
    )
    lines.append(f"           scores: {scores}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the scoring engine.")
    parser.add_argument("--sizes", default=None, help="comma-separated row counts")
    parser.add_argument("--quick", action="store_true", help="8,333 and 100,000 rows")
    parser.add_argument("--cases", default=",".join(CASES), help=f"subset of {CASES}")
    parser.add_argument("--timeout", type=float, default=900.0, help="seconds per child")
    parser.add_argument("--child", nargs=3, metavar=("PHASE", "DIR", "ARG"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.child:
        phase, directory, arg = args.child
        if phase == "prepare":
            print(json.dumps(prepare(int(arg), Path(directory))))
        else:
            print(json.dumps(score(Path(directory), arg)))
        return 0

    sizes = [
        int(s) for s in (args.sizes or ("8333,100000" if args.quick else "8333,1000000")).split(",")
    ]
    cases = [c for c in args.cases.split(",") if c]
    unknown = set(cases) - set(CASES)
    if unknown:
        parser.error(f"unknown cases {sorted(unknown)}")
    per_row: dict[str, list[tuple[int, float]]] = {}
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="bench_scoring_") as tmp:
            prep = _child(["--child", "prepare", tmp, str(size)], args.timeout)
            if "error" in prep:
                print(f"{size:,} rows: preparation failed: {prep['error']}")
                continue
            print(
                f"{size:,} rows x 25 columns (CSV {prep['csv_mib']:.1f} MiB): generate "
                f"{prep['generate_s']:.2f} s, write both CSVs {prep['write_s']:.2f} s"
            )
            for case in cases:
                run = _child(["--child", "score", tmp, case], args.timeout)
                for line in _report(size, case, prep, run):
                    print(line, flush=True)
                if "error" not in run:
                    per_row.setdefault(case, []).append((size, run["evaluate_s"]))
    if len(sizes) > 1:
        print("scaling (evaluate time per 1,000 rows):")
        for case, points in per_row.items():
            text = ", ".join(f"{n:,} rows: {1000 * t / n:.4f} s" for n, t in points)
            print(f"  {case:8s} {text}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
