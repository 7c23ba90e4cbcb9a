"""Benchmark of the synthetic round's scoring (issue 36): one release and one attack.

On ``fixtures/adult.csv`` with the spec's sizes (2,000 members, 5,000 holdout rows,
400 challenge rows, 2,000 auxiliary rows), it draws the round and one team, makes the kit's
sample release (independent marginals of the members), and times, separately, what the
worker does:

* a release's check and scores (``read_release`` + ``release_scores``), the first one of a
  team (the members' own model ``AUC(T_X→H)`` is fitted too) and a later one (that AUC is
  kept on the draw);
* the freeze's built-in attacks on the target (DCR, density, null, each scored on both
  halves);
* a team's attack (``read_attack`` + ``score_attack``), the DCR answer uploaded.

Each is run ``--repeat`` times and the median printed. One core: scikit-learn's forest runs
with ``n_jobs=1`` (the spec's pipeline), and BLAS is held to one thread here.

Target (issue 36): each "within a few seconds on one core" — printed against 5 s.

Usage::

    .venv/bin/python benchmarks/bench_synthetic.py
    .venv/bin/python benchmarks/bench_synthetic.py --train 300 --holdout 500 --challenge 80 \\
        --aux 300 --repeat 1          # the suite's smoke run
"""

from __future__ import annotations

import os

for _name in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import argparse  # noqa: E402
import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scoring.synthetic.attack import (  # noqa: E402
    dcr_attack,
    density_attack,
    null_attack,
    read_attack,
    score_attack,
)
from scoring.synthetic.config import parse_config  # noqa: E402
from scoring.synthetic.draws import draw_shared, draw_team  # noqa: E402
from scoring.synthetic.kit import dcr_answer, independent_marginals, table_text  # noqa: E402
from scoring.synthetic.population import read_population  # noqa: E402
from scoring.synthetic.release import read_release  # noqa: E402
from scoring.synthetic.utility import model_auc, release_scores  # noqa: E402

TARGET_SECONDS = 5.0
NUMERIC = {"age", "fnlwgt", "education-num", "capital-gain", "capital-loss", "hours-per-week"}


def timed(function, repeat: int) -> tuple[float, object]:
    """The median wall time of ``repeat`` calls, and the last call's result."""
    times, result = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        result = function()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", default=str(ROOT / "fixtures" / "adult.csv"))
    parser.add_argument("--train", type=int, default=2000)
    parser.add_argument("--holdout", type=int, default=5000)
    parser.add_argument("--challenge", type=int, default=400)
    parser.add_argument("--aux", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    data = Path(args.table).read_bytes()
    header = data.split(b"\n", 1)[0].decode().strip().split(",")
    config = parse_config(
        {
            "columns": {c: "numeric" if c in NUMERIC else "categorical" for c in header},
            "label": header[-1],
            "n_train": args.train,
            "n_holdout": args.holdout,
            "n_challenge": args.challenge,
            "n_aux": args.aux,
        },
        header,
    )
    started = time.perf_counter()
    population = read_population(data, config)
    load = time.perf_counter() - started
    size = len(population.frame)
    shared = draw_shared(size, config, seed=1)
    draw = draw_team(size, config, seed=1, team="1", shared=shared)
    frame = population.frame
    members = frame.iloc[draw.members].reset_index(drop=True)
    holdout = frame.iloc[shared.holdout].reset_index(drop=True)
    aux = frame.iloc[shared.aux].reset_index(drop=True)
    challenge = frame.iloc[draw.challenge].reset_index(drop=True)
    release_text = table_text(independent_marginals(members, rows=len(members), seed=0)).encode()

    def first_release():
        table = read_release(release_text, population)
        return release_scores(table, members, holdout, population)

    auc_train = model_auc(members, holdout, population)

    def later_release():
        table = read_release(release_text, population)
        return release_scores(table, members, holdout, population, auc_train=auc_train)

    release = read_release(release_text, population)

    def builtin():
        out = {}
        for name, scores in (
            ("dcr", dcr_attack(release, challenge, population)),
            ("density", density_attack(release, aux, challenge, population)),
            ("null", null_attack(len(challenge), seed=1, target="1")),
        ):
            out[name] = score_attack(scores, draw.labels, draw.dev, fpr_levels=config.fpr_levels)
        return out

    answer = dcr_answer(release, challenge, population).to_csv(index=False).encode()

    def team_attack():
        scores = read_attack(answer, len(draw.challenge))
        return score_attack(scores, draw.labels, draw.dev, fpr_levels=config.fpr_levels)

    first, scores = timed(first_release, args.repeat)
    later, _ = timed(later_release, args.repeat)
    builtins, _ = timed(builtin, args.repeat)
    attack, result = timed(team_attack, args.repeat)

    print(
        f"table {size:,} rows · members {args.train:,} · holdout {args.holdout:,} · "
        f"challenge {args.challenge:,} · aux {args.aux:,} · median of {args.repeat}"
    )
    print(f"read the population (once per worker process)   {load:7.3f} s")
    rows = [
        ("release, first of a team (fits AUC(T→H) too)", first),
        ("release, later ones", later),
        ("built-in attacks at the freeze (3 attacks)", builtins),
        ("a team's attack (DCR answer)", attack),
    ]
    missed = False
    for label, seconds in rows:
        verdict = "PASS" if seconds <= TARGET_SECONDS else "FAIL"
        missed |= seconds > TARGET_SECONDS
        print(f"{label:<48} {seconds:7.3f} s  {verdict} (≤ {TARGET_SECONDS:g} s)")
    print(
        f"sample release: U_ML {scores.u_ml:.3f} · U_1 {scores.u_1:.3f} · "
        f"DCR_5 members {scores.dcr_5_train:.3f} / holdout {scores.dcr_5_holdout:.3f}; "
        f"DCR attack final AUC {result.final['auc']:.3f}"
    )
    if not np.isfinite(scores.u_ml):
        return 1
    full = (args.train, args.holdout, args.challenge) == (2000, 5000, 400)
    return 1 if missed and full else 0


if __name__ == "__main__":
    raise SystemExit(main())
