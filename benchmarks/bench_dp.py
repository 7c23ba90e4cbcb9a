"""Benchmark of the DP round's mathematics (scoring.dp) at 14 and 100,000 cells.

Cases, each timed once (wall clock, this machine):

``query``      a histogram query end to end on the pure side: parse and validate, charge
               the exact ledger, tabulate the hidden table, draw OpenDP Laplace noise
               (issue 11's target: under 100 ms at 14 cells, the platform's database
               work not included).
``release``    one Pk-anonymized release of the whole table (eq. 2, §6 draw order).
``br``         BR (eq. 3) of one release at the level's ε, with its update count.
``baselines``  every baseline of §9 (T releases, BT, BR, IT_X ρ_s, both crossings).

Sizes: ``14`` is seed 000's MovieLens round (6,040 rows, gender × age, ε = 0.1 / 1 / 4);
``100000`` is a synthetic round of five 10-value attributes (one 100,000-cell target)
over 200,000 skewed rows, at ε = 1 and 4 (ε = 0.1 on 100,000 cells is pure noise and
converges slowest; ``--epsilons`` adds it).

Usage::

    .venv/bin/python benchmarks/bench_dp.py                  # both sizes
    .venv/bin/python benchmarks/bench_dp.py --sizes 14 --trials 30
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from scoring.dp import (  # noqa: E402
    LedgerState,
    equal_rho,
    ledger_charge,
    load_dp_config,
    opendp_laplace_answer,
    parse_config,
    parse_query,
    query_truth,
    reconstruct,
    run_baselines,
    run_pk,
    synthetic_table,
    table_codes,
    target_channel,
)
from scoring.dp.data import histogram_of_codes  # noqa: E402
from scoring.dp.pk import per_attribute_plan  # noqa: E402

MOVIELENS = [78, 298, 558, 338, 189, 146, 102, 144, 805, 1538, 855, 361, 350, 278]


def movielens_round():
    config = load_dp_config(REPO / "fixtures" / "dp" / "movielens_round.json")
    return config, synthetic_table(MOVIELENS, config, ("gender", "age"))


def large_round(rows: int = 200_000):
    names = [f"a{k}" for k in range(5)]
    config = parse_config(
        {
            "attributes": {n: [str(v) for v in range(10)] for n in names},
            "workload": [{"id": "all", "attributes": names}],
            "levels": [{"id": "eps-1", "epsilon": "1"}],
            "baselines": {"trials": 30, "it_x": [1, 10, 100], "x_max": 1000},
        }
    )
    rng = np.random.default_rng(2026)
    weights = 1.0 / np.arange(1, 11) ** 1.2  # Zipf-like: a realistic, skewed histogram
    codes = rng.choice(10, p=weights / weights.sum(), size=(rows, 5))
    table = pd.DataFrame({n: codes[:, k].astype(str) for k, n in enumerate(names)})
    return config, table


def timed(function):
    start = time.perf_counter()
    value = function()
    return value, time.perf_counter() - start


def bench(label: str, config, table, epsilons, trials: int) -> None:
    target = config.workload[0]
    cells = config.cells(target.id)
    print(f"\n== {label}: {len(table):,} rows, target {target.id} with {cells:,} cells")
    query = {"type": "histogram", "attributes": list(target.attributes), "epsilon": "1/14"}

    def answer():
        parsed = parse_query(query, config)
        ledger_charge(LedgerState(budget=config.levels[0].epsilon), parsed.epsilon)
        return opendp_laplace_answer(query_truth(table, config, parsed), scale=parsed.scale)

    answer()  # loads OpenDP once, as a worker does
    _, seconds = timed(answer)
    print(f"query (validate + ledger + truth + OpenDP noise): {seconds * 1000:8.1f} ms")
    codes = table_codes(table, config, target.attributes)
    for eps in epsilons:
        plan = per_attribute_plan(config, equal_rho(eps, config.domain_sizes(target.attributes)))
        released, seconds = timed(
            lambda plan=plan: run_pk(codes, plan, config, np.random.default_rng(1))
        )
        print(f"eps={eps:<4} release:   {seconds * 1000:8.1f} ms   (rho={plan.rhos[0]:.4f})")
        y = histogram_of_codes(released, config.domain_sizes(target.attributes))
        channel = target_channel(plan, config, target.attributes)
        result, seconds = timed(lambda y=y, channel=channel: reconstruct(y, channel))
        print(f"eps={eps:<4} BR:        {seconds * 1000:8.1f} ms   ({result.iterations} updates)")
        result, seconds = timed(lambda eps=eps: run_baselines(table, config, eps, trials=trials))
        print(
            f"eps={eps:<4} baselines: {seconds * 1000:8.1f} ms   (T={trials}; BT {result['BT']['l2']:.1f}, "
            f"BR {result['BR']['l2']:.1f}, X* L2 {result['crossing']['l2']}, "
            f"rank {result['crossing']['spearman']})"
        )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", default="14,100000")
    parser.add_argument("--trials", type=int, default=30)
    parser.add_argument("--epsilons", default=None, help="comma-separated ε (default per size)")
    args = parser.parse_args(argv)
    for size in args.sizes.split(","):
        if size == "14":
            epsilons = [0.1, 1.0, 4.0]
            config, table = movielens_round()
        else:
            epsilons = [1.0, 4.0]
            config, table = large_round()
        if args.epsilons:
            epsilons = [float(e) for e in args.epsilons.split(",")]
        bench(f"{size} cells", config, table, epsilons, args.trials)
    return 0


if __name__ == "__main__":
    sys.exit(main())
