"""``scoring.nearest.nearest_hits`` against all pairs, on data full of ties.

The KD-tree search stops at the first point that proves a miss and counts the points
tying the minimum otherwise, each query with its own bound; the data here have many
misses (large noise) next to hits with ties: exact duplicates, equal distances on both
sides and near-ties inside and just outside the ``1e-9`` tolerance.
"""

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import _nearest_numba, nearest


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


@pytest.mark.parametrize("chunk", [4096, 37], ids=["one chunk", "thread pool"])
@pytest.mark.parametrize("seed", range(6))
def test_all_rows_against_direct_definition(seed, chunk, monkeypatch):
    monkeypatch.setattr(nearest, "_CHUNK", chunk)
    ref, rel, truth = tie_heavy(seed)
    got = nearest.nearest_hits(ref, rel, truth)
    expected = direct_hits(ref, rel, truth)
    np.testing.assert_array_equal(got, expected)
    assert 0 < np.mean(expected == 0) and np.any((expected > 0) & (expected < 1))


@pytest.mark.parametrize("small_class", [nearest._SMALL_CLASS, 0], ids=["blocks", "trees"])
@pytest.mark.parametrize("seed", range(4))
def test_classes_against_direct_definition(seed, small_class, monkeypatch):
    monkeypatch.setattr(nearest, "_SMALL_CLASS", small_class)
    ref, rel, truth = tie_heavy(seed + 100)
    rng = np.random.default_rng(seed)
    # three classes of about 200 rows (trees) and some of a few rows (blocks unless 0)
    ref_class = np.where(rng.random(len(ref)) < 0.1, rng.integers(3, 40, len(ref)), 0)
    ref_class[ref_class == 0] = rng.integers(0, 3, np.sum(ref_class == 0))
    rel_class = ref_class[np.maximum(truth, 0)].copy()
    moved = rng.random(len(rel)) < 0.2
    rel_class[moved] = rng.integers(0, 3, moved.sum())
    truth = np.where((truth >= 0) & (ref_class[np.maximum(truth, 0)] == rel_class), truth, -1)
    got = nearest.nearest_hits(ref, rel, truth, ref_class=ref_class, rel_class=rel_class)
    expected = direct_hits(ref, rel, truth, ref_class, rel_class)
    np.testing.assert_array_equal(got, expected)
    assert np.mean(expected == 0) > 0.3 and np.any((expected > 0) & (expected < 1))


def test_more_tied_points_than_the_search_keeps():
    # The 64 corners of a 6-cube tie from its centre, each twice: 128 guesses (> FOUND)
    corners = np.array(np.meshgrid(*[[0.0, 2.0]] * 6)).reshape(6, -1).T
    ref = np.concatenate([corners, corners, corners + 10.0])
    rel = np.array([[1.0] * 6, [1.0] * 6, [11.0] * 6, [1.0 + 1e-3] * 6])
    truth = np.array([5, 64 + 63, 130, 0])
    assert 2 * corners.shape[0] > _nearest_numba.FOUND
    got = nearest.nearest_hits(ref, rel, truth)
    np.testing.assert_array_equal(got, direct_hits(ref, rel, truth))
    assert got.tolist() == [1 / 128, 1 / 128, 1 / 64, 0.0]


def test_compiled_search_uses_the_same_tolerance():
    assert _nearest_numba.TIE_RTOL == nearest.TIE_RTOL


@st.composite
def tied_tables(draw):
    """Small tables on a coarse grid: duplicate rows, equal distances, empty classes."""
    dims = draw(st.sampled_from([2, 3, 12]))
    n = draw(st.integers(1, 80))
    m = draw(st.integers(1, 80))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    steps = draw(st.integers(1, 4))  # few values per axis: many ties and duplicates
    scale = draw(st.sampled_from([1.0, 0.1, 1e6]))
    ref = rng.integers(0, steps + 1, (n, dims)) * scale
    truth = rng.integers(-1, n, m)
    rel = ref[np.maximum(truth, 0)] + rng.integers(-1, 2, (m, dims)) * (scale / 2)
    classes = draw(st.integers(0, 4))  # 0: no classes
    if not classes:
        return ref, rel, truth, None, None
    ref_class = rng.integers(0, classes, n)
    rel_class = rng.integers(0, classes, m)
    rel_class = np.where(truth >= 0, ref_class[np.maximum(truth, 0)], rel_class)
    present = np.isin(rel_class, ref_class)
    rel_class[~present] = ref_class[0]
    truth[rel_class != ref_class[np.maximum(truth, 0)]] = -1
    return ref, rel, truth, ref_class, rel_class


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tied_tables(), st.sampled_from([nearest._SMALL_CLASS, 0]))
def test_matches_all_pairs_on_generated_ties(table, small_class):
    ref, rel, truth, ref_class, rel_class = table
    old = nearest._SMALL_CLASS
    nearest._SMALL_CLASS = small_class  # 0: every class through the trees
    try:
        got = nearest.nearest_hits(ref, rel, truth, ref_class=ref_class, rel_class=rel_class)
    finally:
        nearest._SMALL_CLASS = old
    np.testing.assert_array_equal(got, direct_hits(ref, rel, truth, ref_class, rel_class))


def test_warm_up_compiles_the_search_used_by_real_calls():
    nearest.warm_up()
    kernels = (
        _nearest_numba.distinct_rows,
        _nearest_numba.build_forest,
        _nearest_numba.tie_weights,
    )
    compiled = [list(kernel.signatures) for kernel in kernels]
    assert all(len(signatures) == 1 for signatures in compiled)
    ref, rel, truth = tie_heavy(0)
    ref_class = np.arange(len(ref)) % 2
    rel_class = ref_class[np.maximum(truth, 0)]
    nearest.nearest_hits(ref, rel, truth, ref_class=ref_class, rel_class=rel_class)
    nearest.nearest_hits(ref[:, :3], rel[:, :3], truth)  # other shapes, the same types
    assert [list(kernel.signatures) for kernel in kernels] == compiled


def test_kernels_compile_without_a_writable_cache(monkeypatch):
    real = _nearest_numba.numba.njit
    asked = []

    def no_cache_directory(*args, cache=False, **options):
        asked.append(cache)
        if cache:  # what numba raises when no cache directory is writable
            raise RuntimeError("cannot cache function: no locator available")
        return real(*args, **options)

    monkeypatch.setattr(_nearest_numba.numba, "njit", no_cache_directory)
    kernel = _nearest_numba._compiled(lambda value: value + 1)
    assert kernel(41) == 42
    assert asked == [True, False]  # tried the cache, then compiled without it
