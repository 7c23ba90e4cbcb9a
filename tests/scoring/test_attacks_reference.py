"""The fast attack code against a direct (quadratic) reading of metrics.md on small tables.

Small integer values make ties frequent: duplicates in X (|T| > 1), equal distances on
both sides, empty QI classes, deleted rows.
"""

import numpy as np
import pandas as pd
import pytest

import scoring

COLUMNS = ["q1", "q2", "s1", "s2", "s3"]


def tie(d, dmin):
    return d - dmin <= 1e-9 * np.maximum(1.0, d)


def reference_rates(
    x: np.ndarray,
    a: np.ndarray,
    kept: np.ndarray,
    match: list[int],
    e2: int,
    e4: int,
    euc: list[int],
) -> dict[str, float]:
    """Direct translation of the guess sets of metrics.md, row by row."""
    n = len(x)
    hits = {m: 0.0 for m in scoring.ATTACK_METRICS}
    for i in kept:
        same = [j for j in range(n) if all(x[j, c] == a[i, c] for c in match)]
        every = list(range(n))

        def nearest(candidates, columns, i=i):
            d = np.array(
                [np.sqrt(np.sum((x[j, columns] - a[i, columns]) ** 2)) for j in candidates]
            )
            return [j for j, dj in zip(candidates, d, strict=True) if tie(dj, d.min())]

        guess_sets = {
            "E1": same,
            "E2": nearest(same or every, [e2]),
            "E4": nearest(every, [e4]),
            "EUC1": nearest(same, euc) if same else [],
            "EUC2": nearest(same or every, euc),
        }
        for metric, guesses in guess_sets.items():
            if i in guesses:
                hits[metric] += 1.0 / len(guesses)
    x_order = np.argsort(x[:, 2:].sum(axis=1), kind="stable")
    a_order = kept[np.argsort(a[kept, 2:].sum(axis=1), kind="stable")]
    hits["E3"] = float(np.sum(a_order == x_order[: kept.size]))
    return {m: hits[m] / kept.size for m in scoring.ATTACK_METRICS}


def as_table(values: np.ndarray, deleted=()) -> pd.DataFrame:
    table = pd.DataFrame(values.astype(int).astype(str), columns=COLUMNS).astype(object)
    table.iloc[list(deleted)] = ""
    return table


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize(
    ("match_qi", "n"),
    # small classes (all pairs) and classes above 32 rows (the KD-tree path)
    [(["q1", "q2"], 40), (["q1"], 40), (["q2"], 150)],
)
def test_attacks_match_direct_definition(seed, match_qi, n):
    rng = np.random.default_rng(seed)
    x = np.column_stack(
        [rng.integers(1, 4, n), rng.integers(1, 3, n), rng.integers(0, 6, (n, 3)) * 10]
    )
    a = x.copy()
    a[:, 2:] += rng.integers(-1, 2, (n, 3)) * 5 * (rng.random((n, 3)) < 0.5)
    moved = rng.random(n) < 0.3  # QI combinations that may not exist in X
    a[moved, 0] = rng.integers(1, 4, moved.sum())
    deleted = rng.choice(n, 3, replace=False)
    kept = np.setdiff1d(np.arange(n), deleted)
    original = as_table(x)
    config = scoring.load_config(
        {
            "qi": ["q1", "q2"],
            "sa": ["s1", "s2", "s3"],
            "cross": ["q1"],
            "e2_column": "s2",
            "e4_column": "s3",
            "match_qi": match_qi,
            "euc_sa": ["s1", "s3"],
        },
        original,
    )
    values = scoring.evaluate(original, as_table(a, deleted), config)
    match = [COLUMNS.index(c) for c in match_qi]
    expected = reference_rates(x, a, kept, match, e2=3, e4=4, euc=[2, 4])
    for metric in scoring.ATTACK_METRICS:
        assert values[metric] == pytest.approx(expected[metric], abs=1e-12), metric


def test_fractional_values_and_tolerance():
    # 0.1 + 0.2 vs 0.3: equal up to rounding, so they tie.
    x = pd.DataFrame({"q": ["1", "1"], "s": ["0.3", "0.1"], "t": ["0", "0"]}, dtype=object)
    a = pd.DataFrame({"q": ["1", "1"], "s": ["0.2", "0.1"], "t": ["0", "0"]}, dtype=object)
    config = scoring.load_config(
        {"qi": ["q"], "sa": ["s", "t"], "cross": [], "e2_column": "s", "e4_column": "s"}, x
    )
    values = scoring.evaluate(x, a, config)
    # Row 1 (0.2) is 0.1 away from both 0.3 and 0.1: a tie, half a hit; row 2 exact.
    assert values["E2"] == pytest.approx((0.5 + 1.0) / 2)
    assert values["EUC1"] == pytest.approx((0.5 + 1.0) / 2)
