"""Spec dp-round.md §14: properties every implementation keeps, checked on generated inputs
(hypothesis, bounded) against literal references, and the statistics of the samplers
(§3.6, §3.7, §14.8) with 4-standard-error bounds on seeded runs and on OpenDP's sampler."""

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.dp import (
    DPError,
    LedgerState,
    histogram_of_codes,
    k_of,
    l2,
    ledger_charge,
    opendp_laplace_answer,
    parse_config,
    parse_release_declaration,
    reconstruct,
    run_pk,
    seeded_laplace_noise,
    spearman,
    system_generator,
    target_channel,
)
from scoring.dp.estimators import reconstruct_many
from scoring.dp.laplace import opendp_laplace_noise
from scoring.dp.plausibility import histogram_test, release_moments, retention_test

SIZES = st.lists(st.integers(2, 4), min_size=1, max_size=3)


@st.composite
def round_and_plan(draw):
    sizes = draw(SIZES)
    names = [f"a{k}" for k in range(len(sizes))]
    config = parse_config(
        {
            "attributes": {
                n: [f"v{i}" for i in range(v)] for n, v in zip(names, sizes, strict=True)
            },
            "workload": [{"id": "all", "attributes": names}],
            "levels": [{"id": "l", "epsilon": "1"}],
        }
    )
    labels = draw(
        st.lists(st.integers(0, len(names) - 1), min_size=len(names), max_size=len(names))
    )
    groups = {}
    for name, label in zip(names, labels, strict=True):
        groups.setdefault(label, []).append(name)
    declaration = {
        "groups": [
            {"attributes": members, "rho": draw(st.floats(0.05, 0.9))}
            for members in groups.values()
        ]
    }
    return config, parse_release_declaration(declaration, config)


def literal_channel(config, plan):
    """The full channel read off eq. (2) cell by cell (the quadratic reference)."""
    names = list(plan.attributes)
    cells = list(itertools.product(*(range(len(config.attributes[n])) for n in names)))
    matrix = np.ones((len(cells), len(cells)))
    for i, a in enumerate(cells):
        for j, b in enumerate(cells):
            for group in plan.groups:
                idx = [names.index(n) for n in group.attributes]
                same = all(a[k] == b[k] for k in idx)
                matrix[i, j] *= group.rho * same + (1 - group.rho) / group.size
    return matrix


@settings(max_examples=40, deadline=None)
@given(round_and_plan())
def test_eq6_is_the_brute_force_ldp_epsilon_and_a_s_is_the_literal_channel(case):
    config, plan = case
    full = literal_channel(config, plan)
    channel = target_channel(plan, config, plan.attributes)
    assert np.allclose(channel.dense(), full)
    assert np.allclose(full.sum(axis=1), 1)
    brute = math.log(np.max(full[:, None, :] / full[None, :, :]))
    assert brute == pytest.approx(plan.epsilon, rel=1e-9)
    assert plan.k(100) == pytest.approx(k_of(100, plan.epsilon))
    assert plan.charge >= Fraction(plan.epsilon) and plan.charge - Fraction(
        plan.epsilon
    ) <= Fraction(1, 10**9)


@settings(max_examples=40, deadline=None)
@given(round_and_plan(), st.data())
def test_a_s_is_the_marginal_of_the_full_channel(case, data):
    config, plan = case
    names = list(plan.attributes)
    subset = data.draw(st.lists(st.sampled_from(names), min_size=1, unique=True))
    subset = config.in_round_order(subset)
    full = literal_channel(config, plan)
    sizes = config.domain_sizes(names)
    keep = [names.index(n) for n in subset]
    drop = tuple(k for k in range(len(names)) if k not in keep)
    outputs = full.reshape(-1, *sizes).sum(axis=tuple(1 + k for k in drop))  # inputs × S-outputs
    outputs = outputs.reshape(full.shape[0], -1)
    channel = target_channel(plan, config, subset).dense()
    inputs = np.array(list(itertools.product(*(range(v) for v in sizes))))
    s_index = np.ravel_multi_index(tuple(inputs[:, keep].T), config.domain_sizes(subset))
    assert np.allclose(outputs, channel[s_index])
    z = data.draw(st.lists(st.integers(0, 9), min_size=channel.shape[0], max_size=channel.shape[0]))
    assert target_channel(plan, config, subset).apply(z).sum() == pytest.approx(sum(z))


@settings(max_examples=40, deadline=None)
@given(round_and_plan(), st.data())
def test_reconstruction_keeps_the_total_stays_non_negative_and_fixes_za(case, data):
    config, plan = case
    channel = target_channel(plan, config, plan.attributes)
    cells = channel.cells
    y = np.array(
        data.draw(st.lists(st.integers(0, 30), min_size=cells, max_size=cells)), dtype=float
    )
    for steps in (1, 2, 7):
        z = reconstruct(y, channel, max_iter=steps, tol=1e-15).estimate
        assert np.all(z >= 0)
        assert z.sum() == pytest.approx(y.sum())
    truth = np.array(
        data.draw(st.lists(st.integers(1, 30), min_size=cells, max_size=cells)), dtype=float
    )
    one = reconstruct(channel.apply(truth), channel, max_iter=1, init=truth).estimate
    assert np.allclose(one, truth)
    # the result depends only on (y, A, init, tol, max_iter): stacked and alone agree
    stacked, iterations, _ = reconstruct_many(np.vstack([y, truth]), channel)
    alone = reconstruct(y, channel)
    assert np.allclose(stacked[0], alone.estimate) and iterations[0] == alone.iterations


VECTORS = st.lists(st.integers(0, 50), min_size=2, max_size=30)


@given(VECTORS, st.data())
def test_utility_invariances(z, data):
    z = np.array(z, dtype=float)
    estimate = np.array(
        data.draw(st.lists(st.integers(-100, 100), min_size=z.size, max_size=z.size)), dtype=float
    )
    assert l2(z, z) == 0
    assert spearman(z, z) == (1.0 if np.ptp(z) > 0 else 0.0)
    assert spearman(np.full(z.size, 5.0), z) == 0
    base = spearman(estimate, z)
    assert spearman(estimate**3 + 2 * estimate - 7, z) == pytest.approx(base, abs=1e-12)
    order = np.array(data.draw(st.permutations(range(z.size))))
    assert spearman(estimate[order], z[order]) == pytest.approx(base, abs=1e-12)
    assert l2(estimate[order], z[order]) == pytest.approx(l2(estimate, z))
    assert -1 <= base <= 1


AMOUNTS = st.lists(
    st.one_of(
        st.fractions(min_value=Fraction(1, 50), max_value=Fraction(1, 2), max_denominator=50),
        st.sampled_from([Fraction(1, 14), Fraction(1, 3), Fraction(1, 10)]),
    ),
    max_size=40,
)


@given(AMOUNTS, st.sampled_from([Fraction(1), Fraction(1, 10), Fraction(4)]))
def test_ledger_never_overspends_and_a_refusal_changes_nothing(amounts, budget):
    state = LedgerState(budget=budget)
    accepted = []
    for amount in amounts:
        try:
            after = ledger_charge(state, amount)
        except DPError:
            assert state.spent + amount > state.budget  # refused only past the budget
            continue
        assert after.spent == state.spent + amount and after.charges == state.charges + 1
        accepted.append(amount)
        state = after
    assert sum(accepted, Fraction(0)) == state.spent <= budget


def test_same_seed_same_release_and_answer():
    config = parse_config(
        {
            "attributes": {"g": ["F", "M"], "a": ["x", "y", "z"]},
            "workload": [{"id": "t", "attributes": ["g", "a"]}],
            "levels": [{"id": "l", "epsilon": "1"}],
        }
    )
    plan = parse_release_declaration(
        {"groups": [{"attributes": ["g", "a"], "epsilon": "1"}]}, config
    )
    codes = np.random.default_rng(0).integers(0, [2, 3], size=(500, 2))
    first = run_pk(codes, plan, config, np.random.default_rng(11))
    assert np.array_equal(first, run_pk(codes, plan, config, np.random.default_rng(11)))
    assert not np.array_equal(first, run_pk(codes, plan, config, np.random.default_rng(12)))
    a = seeded_laplace_noise(6, scale=2, rng=np.random.default_rng(3))
    assert np.array_equal(a, seeded_laplace_noise(6, scale=2, rng=np.random.default_rng(3)))
    one, two = system_generator().random(4), system_generator().random(4)
    assert not np.array_equal(one, two)  # OS entropy: never the same stream


# statistics (§3.6, §3.7, §14.8) ---------------------------------------------------------


def test_released_histograms_and_retention_follow_section_3_6():
    config = parse_config(
        {
            "attributes": {"g": ["F", "M"], "a": ["x", "y", "z"]},
            "workload": [{"id": "t", "attributes": ["g", "a"]}],
            "levels": [{"id": "l", "epsilon": "1"}],
        }
    )
    plan = parse_release_declaration(
        {"groups": [{"attributes": ["g"], "rho": 0.3}, {"attributes": ["a"], "rho": 0.6}]}, config
    )
    truth_codes = np.repeat(np.array([[0, 0], [0, 1], [1, 2], [1, 1]]), [5, 20, 40, 15], axis=0)
    z = histogram_of_codes(truth_codes, (2, 3))
    channel = target_channel(plan, config, ("g", "a"))
    mean, var = release_moments(z, channel)
    rng = np.random.default_rng(2026)
    runs = 4000
    ys, kept = np.empty((runs, 6)), np.empty((runs, 2))
    for r in range(runs):
        released = run_pk(truth_codes, plan, config, rng, shuffle=False)
        ys[r] = histogram_of_codes(released, (2, 3))
        kept[r] = [(released[:, k] == truth_codes[:, k]).sum() for k in range(2)]
    assert np.all(np.abs(ys.mean(axis=0) - mean) <= 4 * np.sqrt(var / runs))
    # the variance of a sample variance is about 2σ⁴/(n−1) for near-normal counts
    assert np.all(np.abs(ys.var(axis=0, ddof=1) - var) <= 4 * var * np.sqrt(2 / (runs - 1)))
    n = len(truth_codes)
    for k, group in enumerate(plan.groups):
        p = group.rho + (1 - group.rho) / group.size
        assert abs(kept[:, k].mean() - n * p) <= 4 * math.sqrt(n * p * (1 - p) / runs)
        assert kept[:, k].var() == pytest.approx(n * p * (1 - p), rel=0.1)


def test_honest_declared_releases_are_rarely_flagged():
    config = parse_config(
        {
            "attributes": {"g": ["F", "M"], "a": ["x", "y", "z", "w"]},
            "workload": [{"id": "t", "attributes": ["g", "a"]}],
            "levels": [{"id": "l", "epsilon": "1"}],
        }
    )
    plan = parse_release_declaration(
        {
            "groups": [
                {"attributes": ["g"], "epsilon": "0.5"},
                {"attributes": ["a"], "epsilon": "0.5"},
            ]
        },
        config,
    )
    truth = np.random.default_rng(5).integers(0, [2, 4], size=(2000, 2))
    rng = np.random.default_rng(6)
    flags = tests = 0
    for _ in range(300):
        released = run_pk(truth, plan, config, rng, shuffle=False)
        retention = retention_test(truth, released, plan)
        cells = histogram_test(released, truth, plan, config)["t"]
        flags += sum(r["flagged"] for r in retention) + sum(abs(v) > 4 for v in cells["z"])
        tests += len(retention) + len(cells["z"])
    assert flags / tests < 1e-3  # the spec's rate is about 6e-5 per tested quantity
    # uploading the truth itself keeps every value: the retention test catches it
    assert all(r["flagged"] for r in retention_test(truth, truth, plan))


@pytest.mark.parametrize("sampler", ["seeded", "opendp"])
def test_laplace_noise_mean_variance_and_tail(sampler):
    scale, cells, runs = 2.0, 14, 3000
    if sampler == "seeded":
        rng = np.random.default_rng(99)
        noise = np.array([seeded_laplace_noise(cells, scale=scale, rng=rng) for _ in range(runs)])
    else:
        noise = opendp_laplace_noise(cells * runs, scale=scale).reshape(runs, cells)
    flat = noise.ravel()
    n = flat.size
    assert abs(flat.mean()) <= 4 * math.sqrt(2 * scale**2 / n)
    # Var = 2λ²; the sample variance of Laplace has sd ≈ λ² √(20/n) (fourth moment 24λ⁴)
    assert abs(flat.var() - 2 * scale**2) <= 4 * scale**2 * math.sqrt(20 / n)
    for t in (1, 2, 3):
        p = math.exp(-t)
        assert abs((np.abs(flat) > t * scale).mean() - p) <= 4 * math.sqrt(p * (1 - p) / n)
    squared = (noise**2).sum(axis=1)  # E‖noise‖² = 2Vλ²; Var of one |X|² term is 20λ⁴
    assert abs(squared.mean() - 2 * cells * scale**2) <= 4 * math.sqrt(20 * cells * scale**4 / runs)


def test_two_identical_opendp_queries_get_independent_noise():
    truth = np.arange(2000, dtype=float)
    first = opendp_laplace_answer(truth, scale=2.0) - truth
    second = opendp_laplace_answer(truth, scale=2.0) - truth
    assert not np.array_equal(first, second)
    assert abs(np.corrcoef(first, second)[0, 1]) <= 4 / math.sqrt(truth.size)
    average = (first + second) / 2  # two answers averaged: variance halves (why replays are free)
    assert average.var() < first.var()


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5)
    | st.floats(allow_nan=True)
    | st.text(max_size=6)
    | st.sampled_from(["gender", "age", "F", "18-24", "1/3", "0.5", "histogram", "count"]),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                ["type", "attributes", "where", "epsilon", "groups", "rho", "id", "gender", "age"]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(JSON)
def test_any_json_input_gives_a_result_or_a_dp_error(value):
    from scoring.dp import parse_query
    from scoring.dp._examples import TOY_CONFIG, toy_config

    config = toy_config()
    for call in (
        lambda: parse_query(value, config),
        lambda: parse_release_declaration(value, config),
        lambda: parse_config(value),
        lambda: parse_config({**TOY_CONFIG, "workload": value}),
        lambda: parse_config({**TOY_CONFIG, "levels": value}),
        lambda: parse_config({**TOY_CONFIG, "attributes": value}),
    ):
        try:
            call()
        except DPError:
            pass
