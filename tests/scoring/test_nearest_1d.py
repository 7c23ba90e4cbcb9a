"""The one-column search gives what all pairs give (metrics.md read literally), ties
included, and is what the general search runs for one column."""

import numpy as np
import pytest

from scoring.nearest import nearest_hits
from scoring.nearest_1d import nearest_hits_1d, nearest_hits_all
from tests.scoring.test_nearest import direct_hits


@pytest.mark.parametrize("seed", range(20))
def test_same_hits_as_the_general_search(seed):
    rng = np.random.default_rng(seed)
    n, m = int(rng.integers(1, 300)), int(rng.integers(1, 300))
    spread = [3, 50, 10_000][seed % 3]  # few distinct values: many ties
    ref = rng.integers(-spread, spread, n).astype(float)
    if seed % 4 == 0:
        ref = ref * 0.1  # decimals: ties within the relative tolerance only
    truth = rng.integers(-1, n, m)
    rel = np.where(truth >= 0, ref[np.maximum(truth, 0)], 0.0) + rng.choice(
        [0.0, 0.0, 1.0, -1.0, 0.5, 1e-12], m
    )
    expected = direct_hits(ref[:, None], rel[:, None], truth)
    got = nearest_hits_all(ref, rel, truth)
    assert got.tolist() == expected.tolist()
    assert nearest_hits(ref[:, None], rel[:, None], truth).tolist() == expected.tolist()
    assert (got > 0).any() or not (truth >= 0).any() or spread > 1000


def test_no_reference_rows_and_no_truth():
    assert nearest_hits_all(np.zeros(0), np.array([1.0]), np.array([-1])).tolist() == [0.0]
    ref = np.array([1.0, 1.0, 2.0])
    assert nearest_hits_all(ref, np.array([1.0, 5.0]), np.array([-1, -1])).tolist() == [0, 0]
    # two reference rows hold the true value: a guess among both
    assert nearest_hits_all(ref, np.array([1.0]), np.array([1])).tolist() == [0.5]


@pytest.mark.parametrize("seed", range(20))
def test_same_hits_within_classes_as_the_general_search(seed):
    rng = np.random.default_rng(100 + seed)
    n, m = int(rng.integers(1, 300)), int(rng.integers(1, 300))
    spread = [3, 50, 10_000][seed % 3]
    ref = rng.integers(-spread, spread, n).astype(float) * (0.1 if seed % 4 == 0 else 1.0)
    ref_class = rng.integers(-1, int(rng.integers(1, 20)), n)
    if seed % 5 == 0:
        ref_class = ref_class * 1_000_003  # sparse class ids
    truth = rng.integers(-1, n, m)
    rel_class = np.where(truth >= 0, ref_class[np.maximum(truth, 0)], -1)
    rel_class = np.where(rel_class < 0, ref_class.max(), rel_class)  # every class occurs in X
    truth = np.where((truth >= 0) & (ref_class[np.maximum(truth, 0)] == rel_class), truth, -1)
    rel = np.where(truth >= 0, ref[np.maximum(truth, 0)], 0.0) + rng.choice(
        [0.0, 0.0, 1.0, -1.0, 0.5, 1e-12], m
    )
    expected = direct_hits(ref[:, None], rel[:, None], truth, ref_class, rel_class)
    got = nearest_hits_1d(ref, rel, truth, ref_class=ref_class, rel_class=rel_class)
    assert got.tolist() == expected.tolist()
    through_general = nearest_hits(
        ref[:, None], rel[:, None], truth, ref_class=ref_class, rel_class=rel_class
    )
    assert through_general.tolist() == expected.tolist()
