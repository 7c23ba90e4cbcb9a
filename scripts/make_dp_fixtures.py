"""Write the DP round's fixtures (spec dp-round.md §10.1, §10.2) under fixtures/dp/.

* ``movielens_counts.csv``: the 14 gender × age aggregates of MovieLens 1M (counts only,
  never MovieLens rows), and ``movielens_round.json``, the reproduction round of §10.1.
* ``adult_dp.csv``: the categorical table of the Adult demo (sex, ageband, race, income),
  derived from ``fixtures/adult.csv`` row by row; ``adult_round.json``, its round
  (six 2-way marginals, levels 0.1 / 1 / 4).

    .venv/bin/python scripts/make_dp_fixtures.py           # writes the files
    .venv/bin/python scripts/make_dp_fixtures.py --check   # fails if a file is stale
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "fixtures" / "dp"

AGE_BANDS = ["<=17", "18-24", "25-34", "35-44", "45-49", "50-55", "56+"]
AGE_EDGES = [17, 24, 34, 44, 49, 55]  # upper ends of the first six bands
MOVIELENS_Z = [78, 298, 558, 338, 189, 146, 102, 144, 805, 1538, 855, 361, 350, 278]
RACES = ["White", "Black", "Asian-Pac-Islander", "Amer-Indian-Eskimo", "Other"]

COMMON = {
    "adjacency": "replace",
    "tracks": {"interactive": True, "batch": "platform"},
    "query_types": ["histogram", "count"],
    "max_charges_per_level": 1000,
    "max_cells": 100000,
    "reconstruction": {"init": "uniform", "tol": 1e-4, "max_iter": 100000},
    "rank_metric": "l2",
    "target_aggregate": "mean",
    "overall": "rank_sum",
    "spearman_gate": None,
    "feedback": "after_close",
    "plausibility_z": 4.0,
    "publish_truth": False,
    "baselines": {
        "trials": 30,
        "rho_rule": "exact",
        "aggregate": "median_of_measures",
        "it_x": [1, 10, 14, 55, 62, 89, 91, 109, 436],
        "x_max": 1000,
        "seed": 2016,
    },
}
LEVELS = [
    {"id": "eps-0.1", "epsilon": "0.1"},
    {"id": "eps-1", "epsilon": "1.0"},
    {"id": "eps-4", "epsilon": "4.0"},
]

MOVIELENS_ROUND = {
    "kind": "dp",
    "attributes": {"gender": ["F", "M"], "age": AGE_BANDS},
    "numeric": {},
    "workload": [{"id": "gender_age", "attributes": ["gender", "age"]}],
    "levels": LEVELS,
    **COMMON,
}

ADULT_ATTRIBUTES = {
    "sex": ["Female", "Male"],
    "ageband": AGE_BANDS,
    "race": RACES,
    "income": ["<=50K", ">50K"],
}
ADULT_ROUND = {
    "kind": "dp",
    "attributes": ADULT_ATTRIBUTES,
    "numeric": {},
    "workload": [
        {"id": f"{a}_{b}", "attributes": [a, b]}
        for k, a in enumerate(ADULT_ATTRIBUTES)
        for b in list(ADULT_ATTRIBUTES)[k + 1 :]
    ],
    "levels": LEVELS,
    **COMMON,
}


def movielens_counts() -> str:
    rows = ["gender,age,count"]
    cells = [(g, a) for g in ("F", "M") for a in AGE_BANDS]
    rows += [f"{g},{a},{n}" for (g, a), n in zip(cells, MOVIELENS_Z, strict=True)]
    return "\n".join(rows) + "\n"


def adult_dp_table(adult: pd.DataFrame) -> pd.DataFrame:
    """sex, ageband, race, income of every Adult row (the demo's hidden table)."""
    age = pd.to_numeric(adult["age"]).to_numpy()
    band = pd.cut(age, bins=[-1, *AGE_EDGES, 1000], labels=AGE_BANDS).astype(str)
    return pd.DataFrame(
        {
            "sex": adult["sex"].str.strip(),
            "ageband": band,
            "race": adult["race"].str.strip(),
            "income": adult["income"].str.strip(),
        }
    )


def outputs() -> dict[str, str]:
    adult = pd.read_csv(ROOT / "fixtures" / "adult.csv", dtype=str, keep_default_na=False)
    buffer = io.StringIO()
    adult_dp_table(adult).to_csv(buffer, index=False, lineterminator="\n")
    return {
        "movielens_counts.csv": movielens_counts(),
        "movielens_round.json": json.dumps(MOVIELENS_ROUND, indent=2, ensure_ascii=False) + "\n",
        "adult_dp.csv": buffer.getvalue(),
        "adult_round.json": json.dumps(ADULT_ROUND, indent=2, ensure_ascii=False) + "\n",
    }


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    stale = []
    for name, text in outputs().items():
        path = OUT / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(name)
        else:
            OUT.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"wrote {path.relative_to(ROOT)}")
    if stale:
        print("stale: " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
