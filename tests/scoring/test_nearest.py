"""``scoring.nearest.nearest_hits`` against all pairs, where the approximate pass matters.

The KD-tree path first runs an approximate nearest query that settles rows as misses;
the data here have many misses (large noise, dense duplicates) next to hits with ties:
exact duplicates, equal distances on both sides and near-ties inside and just outside
the ``1e-9`` tolerance.
"""

import numpy as np
import pytest

from scoring import nearest


def direct_hits(ref, rel, truth, ref_class=None, rel_class=None):
    """metrics.md read literally: all pairs, ``d - dmin <= 1e-9 * max(1, d)``."""
    gaps = rel[:, None, :] - ref[None, :, :]
    dist = np.sqrt(np.sum(gaps**2, axis=2))
    if ref_class is not None:
        dist[rel_class[:, None] != ref_class[None, :]] = np.inf
    dmin = dist.min(axis=1, keepdims=True)
    guesses = (dist - dmin <= 1e-9 * np.maximum(1.0, dist)) & np.isfinite(dist)
    out = np.zeros(len(rel))
    rows = np.flatnonzero(truth >= 0)
    inside = guesses[rows, truth[rows]]
    out[rows[inside]] = 1.0 / guesses[rows[inside]].sum(axis=1)
    return out


def tie_heavy(seed, n=600, dims=4):
    """Reference rows on a coarse grid (duplicates), released rows mostly far off."""
    rng = np.random.default_rng(seed)
    ref = rng.integers(0, 5, (n, dims)) * 10.0
    ref[: n // 10] = ref[n // 10 : n // 5]  # exact duplicate rows: |T| > 1
    truth = rng.permutation(n)
    rel = ref[truth].copy()
    small = rng.random(n) < 0.3  # hits, often tied: half a grid step on one axis
    axis = rng.integers(0, dims, n)
    rel[small, axis[small]] += rng.choice([-5.0, 5.0], small.sum())
    large = ~small & (rng.random(n) < 0.8)  # misses: other grid points are closer
    rel[large] += rng.normal(0, 12.0, (large.sum(), dims))
    # near-ties: shift by 1e-10 (tie) or 1e-7 (no tie) relative to a grid step
    near = rng.random(n) < 0.2
    rel[near, 0] += rng.choice([1e-9, 1e-6], near.sum()) * rng.choice([-1, 1], near.sum())
    rel = rel * 0.1 + 0.3  # fractional values: equal distances differ in the last bits
    ref = ref * 0.1 + 0.3
    truth[rng.random(n) < 0.05] = -1
    return ref, rel, truth


@pytest.mark.parametrize("approx", [True, False], ids=["approximate pass", "exact only"])
@pytest.mark.parametrize("seed", range(6))
def test_all_rows_against_direct_definition(seed, approx, monkeypatch):
    ref, rel, truth = tie_heavy(seed)
    # Small inputs skip the approximate pass (it pays from tens of thousands of rows).
    monkeypatch.setattr(nearest, "_APPROX_FROM", 0 if approx else len(rel) + 1)
    calls = []
    real = nearest._bounded_nearest

    def spy(tree, queries, bounds, locality, k=2, eps=0.0):
        calls.append((eps, queries.shape[0]))
        return real(tree, queries, bounds, locality, k=k, eps=eps)

    monkeypatch.setattr(nearest, "_bounded_nearest", spy)
    got = nearest.nearest_hits(ref, rel, truth)
    expected = direct_hits(ref, rel, truth)
    np.testing.assert_array_equal(got, expected)
    assert 0 < np.mean(expected == 0) and np.any((expected > 0) & (expected < 1))
    if not approx:
        assert [eps for eps, _rows in calls] == [0.0]
        return
    (approx_eps, approx_rows), (exact_eps, exact_rows) = calls
    assert approx_eps > 0 and exact_eps == 0
    assert exact_rows < approx_rows  # the approximate pass settled some misses


@pytest.mark.parametrize("approx_from", [0, nearest._APPROX_FROM])
@pytest.mark.parametrize("seed", range(4))
def test_large_classes_against_direct_definition(seed, approx_from, monkeypatch):
    monkeypatch.setattr(nearest, "_APPROX_FROM", approx_from)
    ref, rel, truth = tie_heavy(seed + 100)
    rng = np.random.default_rng(seed)
    ref_class = rng.integers(0, 3, len(ref))  # about 200 rows each: the KD-tree path
    rel_class = ref_class[np.maximum(truth, 0)].copy()
    moved = rng.random(len(rel)) < 0.2
    rel_class[moved] = rng.integers(0, 3, moved.sum())
    truth = np.where((truth >= 0) & (ref_class[np.maximum(truth, 0)] == rel_class), truth, -1)
    got = nearest.nearest_hits(ref, rel, truth, ref_class=ref_class, rel_class=rel_class)
    expected = direct_hits(ref, rel, truth, ref_class, rel_class)
    np.testing.assert_array_equal(got, expected)
    assert np.mean(expected == 0) > 0.3 and np.any((expected > 0) & (expected < 1))
