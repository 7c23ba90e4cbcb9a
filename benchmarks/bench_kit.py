"""Benchmark of the built-in 'kit' attacker (the lecture's pipeline) on 2015-shaped tables.

For each size it generates an original table (``scoring.datasets``), a submission (5 %
deleted rows, 10 % noise on the SA), publishes it as a shuffled target and times
``scoring.kit.lecture_attack_rate`` (top-3 Euclidean candidates over ``euc_sa`` inside
the ``match_qi`` class, all rows when the class is empty, greedy 1:1 without
duplicates) exactly as the platform runs it on a target, in a fresh subprocess. Cases:

``normal``   default configuration (match on the 13 QI: small classes, many empty).
``match1``   ``match_qi = ["sex"]``: two huge classes.
``nomatch``  ``match_qi`` on a column whose published values never occur in the
             reference, so every row falls back to all rows.

Target (issue 10): 100,000 published rows in under 10 s on this 2-core machine, every
case. 8,333 and 1,000,000 rows are reported without a target.

Usage::

    .venv/bin/python benchmarks/bench_kit.py                    # 8,333 / 100,000 / 1,000,000
    .venv/bin/python benchmarks/bench_kit.py --sizes 8333,100000 --cases normal

Exit status 1 when a target was missed.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

CASES = ("normal", "match1", "nomatch")
TARGET_ROWS, TARGET_SECONDS = 100_000, 10.0


def child(size: int, case: str) -> dict:
    import numpy as np

    import scoring
    from scoring import datasets
    from scoring.kit import lecture_attack_rate

    original = datasets.generate_original(size, seed=1)
    anonymized = datasets.generate_anonymized(original, seed=2)
    raw = datasets.default_config_dict()
    if case == "match1":
        raw["match_qi"] = ["sex"]
    if case == "nomatch":
        anonymized = anonymized.copy()
        kept = anonymized["sex"] != ""
        anonymized.loc[kept, "sex"] = "9"  # never in the reference
        raw["match_qi"] = ["sex"]
        raw["domains"] = {"sex": "number"}
    config = scoring.load_config(raw, original)
    target = scoring.publish_target(anonymized, seed=3)
    started, cpu = time.perf_counter(), time.process_time()
    rate = lecture_attack_rate(original, target.table, target.truth, config)
    seconds = time.perf_counter() - started
    return {
        "rows": int(len(target.table)),
        "seconds": seconds,
        "cpu": time.process_time() - cpu,
        "rate": rate,
        "peak_gib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 2**20,
        "check": float(np.round(rate, 6)),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark the built-in kit attacker.")
    parser.add_argument("--sizes", default="8333,100000,1000000")
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--child", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        print(json.dumps(child(int(args.child[0]), args.child[1])))
        return 0
    failed = False
    print(
        f"{'rows':>9} {'case':<8} {'published':>9} {'seconds':>8} {'cpu':>7} {'rate':>7} {'peak GiB':>8}  target"
    )
    for size in (int(s) for s in args.sizes.split(",")):
        for case in args.cases.split(","):
            out = subprocess.run(
                [sys.executable, __file__, "--child", str(size), case],
                capture_output=True,
                text=True,
                check=True,
                cwd=REPO,
            )
            run = json.loads(out.stdout.strip().splitlines()[-1])
            verdict = "no target"
            if size == TARGET_ROWS:
                ok = run["seconds"] < TARGET_SECONDS
                failed |= not ok
                verdict = f"{'PASS' if ok else 'FAIL'} (< {TARGET_SECONDS:.0f} s)"
            print(
                f"{size:>9,} {case:<8} {run['rows']:>9,} {run['seconds']:>8.2f} {run['cpu']:>7.2f} "
                f"{run['rate']:>7.4f} {run['peak_gib']:>8.2f}  {verdict}",
                flush=True,
            )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
