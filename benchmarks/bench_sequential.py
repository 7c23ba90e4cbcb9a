"""Benchmark of the sequential round's risk engine (issue 12): persons × releases.

Generates a master of ``--persons`` persons over ``--releases`` releases (each person
stays a random stretch of releases; Age 18–90, Zip 10000–99999, 10 sensitive values)
and, per release, a valid generalized release: the persons alive, sorted by (Age, Zip)
and cut into groups of 3 with minimal boxes, plus one counterfeit in every fifth group.
It then times, separately: reading and validating the releases (``read_release``), and
the risk of every person under attackers N and A (``risk``, the issue's target), and
the full report (``evaluate_sequence``: structure, risk, utility).

Target (issue 12): risk for 10,000 persons over 10 releases in under 5 s on this
2-core machine.

Usage::

    .venv/bin/python benchmarks/bench_sequential.py                 # 10,000 × 10
    .venv/bin/python benchmarks/bench_sequential.py --persons 50000 --releases 10 --last

Exit status 1 when the target was missed (only checked at the target's size).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.sequential import (  # noqa: E402
    evaluate_sequence,
    parse_config,
    read_master,
    read_release,
    risk,
)

TARGET_PERSONS, TARGET_RELEASES, TARGET_SECONDS = 10_000, 10, 5.0
VALUES = [f"v{k}" for k in range(10)]


def make_master(persons: int, releases: int, rng) -> pd.DataFrame:
    lsf = rng.integers(1, releases + 1, persons)
    lsb = np.minimum(releases, lsf + rng.integers(0, releases, persons))
    lsf[: max(1, persons // releases)] = 1  # nobody's T(1) is empty
    return pd.DataFrame(
        {
            "pid": [f"p{i}" for i in range(persons)],
            "Age": rng.integers(18, 91, persons).astype(str),
            "Zip": rng.integers(10000, 100000, persons).astype(str),
            "Disease": rng.choice(VALUES, persons),
            "lsf": lsf.astype(str),
            "lsb": lsb.astype(str),
        }
    )


def make_release(master: pd.DataFrame, j: int, rng, *, last: pd.Series | None) -> pd.DataFrame:
    lsf, lsb = master["lsf"].astype(int), master["lsb"].astype(int)
    alive = master.loc[(lsf <= j) & (j <= lsb)].copy()
    alive["Age_n"] = alive["Age"].astype(int)
    alive["Zip_n"] = alive["Zip"].astype(int)
    alive = alive.sort_values(["Age_n", "Zip_n"], kind="stable").reset_index(drop=True)
    alive["gid"] = np.arange(len(alive)) // 3 + 1
    box = alive.groupby("gid").agg(
        a0=("Age_n", "min"), a1=("Age_n", "max"), z0=("Zip_n", "min"), z1=("Zip_n", "max")
    )
    box["Age"] = "[" + box["a0"].astype(str) + "," + box["a1"].astype(str) + "]"
    box["Zip"] = "[" + box["z0"].astype(str) + "," + box["z1"].astype(str) + "]"
    rows = alive[["gid", "pid", "Disease"]].join(box[["Age", "Zip"]], on="gid")
    fake = box.iloc[::5][["Age", "Zip"]].reset_index()
    fake["pid"] = ""
    fake["Disease"] = rng.choice(VALUES, len(fake))
    rows = pd.concat([rows, fake], ignore_index=True)[["gid", "pid", "Age", "Zip", "Disease"]]
    if last is not None:  # a truthful 'last' only where it is trivially true: never
        rows["last"] = "-"
    return rows.astype(str)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--persons", type=int, default=TARGET_PERSONS)
    parser.add_argument("--releases", type=int, default=TARGET_RELEASES)
    parser.add_argument("--seed", type=int, default=12)
    parser.add_argument("--last", action="store_true", help="round with last_disclosure")
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    frame = make_master(args.persons, args.releases, rng)
    config = parse_config(
        {
            "n_releases": args.releases,
            "m": 2,
            "qi": {"Age": "num", "Zip": "num"},
            "sa": "Disease",
            "require_m_eligible": False,
            "last_disclosure": args.last,
        }
    )
    master = read_master(frame, config)
    tables = [
        make_release(frame, j, rng, last=pd.Series() if args.last and j >= 2 else None)
        for j in range(1, args.releases + 1)
    ]
    start = time.perf_counter()
    releases = []
    for j, table in enumerate(tables, start=1):
        previous = releases[-1] if releases else None
        releases.append(read_release(table, release=j, master=master, previous=previous))
    read_seconds = time.perf_counter() - start
    rows = sum(len(r.rows) for r in releases)
    start = time.perf_counter()
    result = risk(master, releases)
    risk_seconds = time.perf_counter() - start
    start = time.perf_counter()
    report = evaluate_sequence(master, releases)
    report_seconds = time.perf_counter() - start
    s = report.summary
    print(
        f"{args.persons:,} persons, {args.releases} releases, {rows:,} release rows "
        f"(last_disclosure={args.last})"
    )
    print(f"  read + validate releases   {read_seconds:7.2f} s")
    print(f"  risk (attackers N and A)   {risk_seconds:7.2f} s")
    print(f"  full report                {report_seconds:7.2f} s")
    print(
        f"  RN_max {s['RN_max']:.4f}  RN_mean {s['RN_mean']:.4f}  RA_mean {s['RA_mean']:.4f}  "
        f"RN_over {s['RN_over']}  MINV {s['MINV']}  IL {s['IL']:.4f}"
    )
    assert len(result.per_person) == s["persons"]
    at_target = args.persons == TARGET_PERSONS and args.releases == TARGET_RELEASES
    if at_target:
        verdict = "met" if risk_seconds < TARGET_SECONDS else "MISSED"
        print(f"  target: risk under {TARGET_SECONDS:.0f} s — {verdict}")
        return 0 if risk_seconds < TARGET_SECONDS else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
