"""The kit's fast attacks against quadratic references that read the spec literally (B.1.5, B.1.6)."""

import numpy as np
import pandas as pd
import pytest

from scoring import kit


def reference_candidates(pub, ref, n, pub_class=None, ref_class=None, fallback=True):
    """All pairs: distance sqrt(sum((a-c)/R)^2), ascending, ties to the lower index."""
    span = ref.max(axis=0) - ref.min(axis=0)
    factor = np.where(span > 0, 1.0 / np.where(span > 0, span, 1), 0.0)
    index = np.full((len(pub), n), -1)
    distance = np.full((len(pub), n), np.inf)
    for i, point in enumerate(pub):
        rows = np.arange(len(ref))
        if pub_class is not None:
            same = rows[ref_class == pub_class[i]]
            if same.size:
                rows = same
            elif not fallback:
                continue
        d = np.sqrt((((ref[rows] - point) * factor) ** 2).sum(axis=1))
        order = sorted(range(rows.size), key=lambda k: (d[k], rows[k]))[:n]
        index[i, : len(order)] = rows[order]
        distance[i, : len(order)] = d[order]
    return index, distance


def reference_greedy(index, distance):
    pairs = sorted(
        (distance[i, r], i, r, index[i, r])
        for i in range(index.shape[0])
        for r in range(index.shape[1])
        if index[i, r] >= 0
    )
    guess, taken = [-1] * index.shape[0], set()
    for _d, i, _r, j in pairs:
        if guess[i] < 0 and j not in taken:
            guess[i] = j
            taken.add(j)
    return guess


def frame(values, classes=None):
    data = {f"x{k}": [str(v) for v in values[:, k]] for k in range(values.shape[1])}
    if classes is not None:
        data["q"] = [str(c) for c in classes]
    return pd.DataFrame(data, dtype=object)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("with_classes", [False, True])
def test_candidates_and_greedy_match_the_quadratic_reference_on_tie_heavy_data(seed, with_classes):
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, 4, size=(60, 2)).astype(float)  # many duplicates and equal distances
    pub = rng.integers(0, 5, size=(45, 2)).astype(float)
    ref_class = rng.integers(0, 4, size=60) if with_classes else None
    pub_class = rng.integers(0, 6, size=45) if with_classes else None  # classes 4, 5: empty
    found = kit.neighbor_att(
        frame(pub, pub_class),
        frame(ref, ref_class),
        columns=["x0", "x1"],
        n=3,
        match=["q"] if with_classes else None,
    )
    index, distance = reference_candidates(pub, ref, 3, pub_class, ref_class)
    assert found.index.tolist() == index.tolist()
    np.testing.assert_allclose(found.distance, distance)
    assert kit.attack_id(found).tolist() == reference_greedy(index, distance)
    assert kit.attack_id(found, duplication=True).tolist() == index[:, 0].tolist()


def test_without_fallback_an_empty_class_has_no_candidate():
    ref = np.array([[0.0], [1.0]])
    pub = np.array([[0.0], [1.0]])
    found = kit.neighbor_att(
        frame(pub, [1, 9]), frame(ref, [1, 1]), columns=["x0"], n=2, match=["q"], fallback=False
    )
    assert found.index.tolist() == [[0, 1], [-1, -1]]


def test_categorical_columns_count_one_per_mismatch():
    ref = pd.DataFrame({"c": ["a", "b", "a"], "x": ["0", "10", "5"]}, dtype=object)
    pub = pd.DataFrame({"c": ["b"], "x": ["5"]}, dtype=object)
    found = kit.neighbor_att(pub, ref, columns=["c", "x"], n=3)
    # to row 1: sqrt(0.5^2 + 0) = 0.5; row 2: sqrt(0 + 1) = 1; row 0: sqrt(0.5^2 + 1)
    assert found.index.tolist() == [[1, 2, 0]]
    np.testing.assert_allclose(found.distance[0], [0.5, 1.0, np.sqrt(1.25)])


def test_lsap_option_is_an_optimal_assignment_over_the_candidate_edges():
    found = kit.Candidates(np.array([[0, 1], [0, 1]]), np.array([[0.1, 0.2], [0.15, 0.9]]))
    assert kit.attack_id(found).tolist() == [0, 1]  # greedy: 0.1 first, total 1.0
    assert kit.attack_id(found, method="lsap").tolist() == [1, 0]  # optimal: 0.35
