"""Build ``fixtures/adult_sample_anonymized.csv``, an example submission for UCI Adult.

The example is deliberately simple and fully deterministic (fixed seed): 5 %
multiplicative noise on the five SA columns (integers stay integers, values stay
non-negative) and 0.5 % of the rows deleted (all cells empty). It is a valid
submission of ``fixtures/adult.csv`` under ``fixtures/adult_round.json`` and is
used by the README and the demo.

Usage::

    .venv/bin/python scripts/make_adult_example.py            # write the file, print scores
    .venv/bin/python scripts/make_adult_example.py --check    # fail if the file is stale
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

import scoring  # noqa: E402
from scoring.datasets import generate_anonymized  # noqa: E402

FIXTURES = REPO / "fixtures"
ORIGINAL = FIXTURES / "adult.csv"
CONFIG = FIXTURES / "adult_round.json"
OUTPUT = FIXTURES / "adult_sample_anonymized.csv"

SEED = 2015
DELETE_FRACTION = 0.005
SA_NOISE = 0.05


def build() -> bytes:
    """Return the CSV bytes of the example submission."""
    original = scoring.read_table(ORIGINAL, name=ORIGINAL.name)
    config = scoring.load_config(json.loads(CONFIG.read_text()), original)
    anonymized = generate_anonymized(
        original,
        seed=SEED,
        delete_fraction=DELETE_FRACTION,
        sa_noise=SA_NOISE,
        qi=config.qi,
        sa=config.sa,
    )
    buffer = io.BytesIO()
    scoring.write_csv(anonymized, buffer)
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the file is current")
    args = parser.parse_args(argv)
    content = build()
    if args.check:
        if not OUTPUT.exists() or OUTPUT.read_bytes() != content:
            print(f"{OUTPUT.relative_to(REPO)} is stale; rerun this script", file=sys.stderr)
            return 1
        print(f"{OUTPUT.relative_to(REPO)} is up to date")
        return 0
    OUTPUT.write_bytes(content)
    original = scoring.read_table(ORIGINAL, name=ORIGINAL.name)
    config = scoring.load_config(json.loads(CONFIG.read_text()), original)
    scores = scoring.evaluate(original, scoring.read_table(OUTPUT, name=OUTPUT.name), config)
    print(f"wrote {OUTPUT.relative_to(REPO)}")
    print(json.dumps(scores, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
