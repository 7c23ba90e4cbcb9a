"""The fast attack code against a direct (quadratic) reading of metrics.md on small tables.

Small integer values make ties frequent: duplicates in X (|T| > 1), equal distances on
both sides, empty QI classes, deleted rows.
"""

import itertools

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
    x_block = rank_block_of_row(list(x[:, 2:].sum(axis=1)))
    a_block = rank_block_of_row([a[i, 2:].sum() for i in kept])
    for k, i in enumerate(kept):
        shared = a_block[k] & x_block[i]
        hits["E3"] += len(shared) / (len(a_block[k]) * len(x_block[i]))
    return {m: hits[m] / kept.size for m in scoring.ATTACK_METRICS}


def rank_block_of_row(sums: list[float]) -> list[set[int]]:
    """E3 of metrics.md read literally: the set of tied rank positions of every row.

    Walk the sums in ascending order; a sum whose gap to the previous one is at most
    ``1e-9 * max(1, |sum|)`` joins the previous block, otherwise it opens a new one.
    """
    order = sorted(range(len(sums)), key=lambda row: sums[row])
    blocks = [[0]]
    for position in range(1, len(order)):
        previous, current = sums[order[position - 1]], sums[order[position]]
        if current - previous <= 1e-9 * max(1.0, abs(current)):
            blocks[-1].append(position)
        else:
            blocks.append([position])
    block_of_row = [set() for _ in sums]
    for block in blocks:
        for position in block:
            block_of_row[order[position]] = set(block)
    return block_of_row


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


def _e3_with_row_order_ties(x_sums, a_sums, truth) -> float:
    """The paper's E3: stable sort, so tied sums keep their row order."""
    x_order = np.argsort(x_sums, kind="stable")
    a_order = np.argsort(a_sums, kind="stable")
    paired = min(x_order.size, a_order.size)
    return float(np.sum(truth[a_order[:paired]] == x_order[:paired]) / a_sums.size)


@pytest.mark.parametrize("seed", range(6))
def test_e3_is_the_mean_over_every_tie_breaking_order(seed):
    """E3 = the paper's row-order rule averaged over all row orders of X and of A.

    Uniform, independent tie-breaking in both tables means: shuffle each table's rows
    uniformly, then sort stably. Enumerating every order of 5 rows gives the exact mean.
    """
    rng = np.random.default_rng(seed)
    n = 5
    x = np.column_stack([np.ones(n, dtype=int), np.ones(n, dtype=int), rng.integers(0, 3, (n, 3))])
    a = x.copy()
    a[:, 2:] = rng.integers(0, 3, (n, 3))  # sums 0..6 over 5 rows: ties everywhere
    deleted = [int(rng.integers(n))] if seed % 2 else []
    kept = np.setdiff1d(np.arange(n), deleted)
    x_sums, a_sums = x[:, 2:].sum(axis=1), a[kept, 2:].sum(axis=1)
    total, count = 0.0, 0
    for x_perm in itertools.permutations(range(n)):
        x_perm = np.array(x_perm)
        position_in_x = np.argsort(x_perm)  # row j of X sits at position_in_x[j]
        for a_perm in itertools.permutations(range(kept.size)):
            a_perm = np.array(a_perm)
            truth = position_in_x[kept[a_perm]]
            total += _e3_with_row_order_ties(x_sums[x_perm], a_sums[a_perm], truth)
            count += 1
    original = as_table(x)
    config = scoring.load_config(
        {"qi": ["q1"], "sa": ["s1", "s2", "s3"], "cross": [], "e2_column": "s1", "e4_column": "s1"},
        original,
    )
    values = scoring.evaluate(original, as_table(a, deleted), config)
    assert values["E3"] == pytest.approx(total / count, abs=1e-12)


def test_e3_ties_within_the_relative_tolerance():
    # 0.1 + 0.2 and 0.3 differ by one ulp: they tie. 1e-6 apart they do not.
    x = pd.DataFrame(
        {"q": ["1", "1", "1"], "s": ["0.1", "0.3", "5"], "t": ["0.2", "0", "0"]}, dtype=object
    )
    config = scoring.load_config(
        {"qi": ["q"], "sa": ["s", "t"], "cross": [], "e2_column": "s", "e4_column": "s"}, x
    )
    # X: rows 1 and 2 tie (block of positions 0-1), row 3 alone; A = X: 1/2 + 1/2 + 1.
    assert scoring.evaluate(x, x, config)["E3"] == pytest.approx(2 / 3)
    a = x.copy()
    a.loc[1, "s"] = "0.300001"
    # A: no tie; rows 1 and 2 each hit with probability 1/2 (X's block), row 3 surely.
    assert scoring.evaluate(x, a, config)["E3"] == pytest.approx((0.5 + 0.5 + 1) / 3)
