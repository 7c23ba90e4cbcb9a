"""The worked examples of metrics.md (seed 004, Tables 2a/2b/3/8/9), for doctests and tests."""

from __future__ import annotations

import pandas as pd

COLUMNS = ("QI1", "QI2", "QI3", "SA1", "SA2")
X_ROWS = [(2, 1, 1, 100, 100), (2, 1, 1, 200, 400), (1, 1, 2, 300, 200), (1, 1, 2, 400, 500)]
SUBMISSIONS = {
    "X": X_ROWS,
    "B": [(2, 1, 1, 110, 90), (2, 1, 1, 220, 390), (1, 1, 2, 280, 210), (1, 1, 2, 390, 520)],
    "D": [(2, 1, 1, 100, 100), (2, 1, 1, 200, 400), (1, 1, 1, 300, 200), (1, 1, 1, 400, 500)],
    "F": [(2, 1, 1, 150, 250), (2, 1, 1, 150, 250), (1, 1, 2, 350, 350), (1, 1, 2, 350, 350)],
    "G": [(2, 1, 1, 200, 100), (2, 1, 1, 100, 400), (1, 1, 2, 300, 500), (1, 1, 2, 400, 200)],
    "deleted": [X_ROWS[0], ("",) * 5, X_ROWS[2], X_ROWS[3]],
    "reordered": [X_ROWS[1], X_ROWS[0], X_ROWS[3], X_ROWS[2]],
}


def example_table(rows) -> pd.DataFrame:
    """A table of text cells like :func:`scoring.read_table` returns."""
    return pd.DataFrame(
        [[str(v) for v in row] for row in rows], columns=list(COLUMNS), dtype=object
    )


def example_config(original: pd.DataFrame):
    """The configuration of the worked examples."""
    from scoring.schema import load_config

    return load_config(
        {
            "qi": ["QI1", "QI2", "QI3"],
            "sa": ["SA1", "SA2"],
            "cross": ["QI1", "QI2"],
            "e2_column": "SA1",
            "e4_column": "SA1",
        },
        original,
    )


def example_data(name: str):
    """:class:`scoring.prepare.ScoringData` of X and the named worked-example submission."""
    from scoring.prepare import ScoringData

    x = example_table(X_ROWS)
    return ScoringData(x, example_table(SUBMISSIONS[name]), example_config(x))
