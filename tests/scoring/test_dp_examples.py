"""The worked examples of spec dp-round.md §5 (EX1–EX11), exact to the spec's precision."""

import math
from fractions import Fraction

import numpy as np
import pytest

from scoring.dp import (
    DPError,
    LedgerState,
    exact_text,
    grr_probabilities,
    invert,
    k_of,
    l2,
    ledger_charge,
    numeric_ldp,
    parse_epsilon,
    parse_query,
    parse_release_declaration,
    pk_release,
    postprocess_counts,
    reconstruct,
    release_epsilon,
    rho_from_epsilon,
    seeded_laplace_noise,
    spearman,
    target_channel,
    true_histogram,
)
from scoring.dp._examples import TOY_Z, toy_config, toy_table
from scoring.dp.baselines import expected_bt_l2, l2_crossing
from scoring.dp.data import histogram_of_codes, table_codes
from scoring.dp.laplace import it_rms_l2, laplace_bound, laplace_density, query_truth
from scoring.dp.plausibility import laplace_counts_test, release_moments, retention_test

Z = np.array(TOY_Z, dtype=float)
HALF = {"groups": [{"attributes": ["gender"], "rho": 0.5}, {"attributes": ["age"], "rho": 0.5}]}


@pytest.fixture
def config():
    return toy_config()


@pytest.fixture
def channel(config):
    return target_channel(parse_release_declaration(HALF, config), config, ("gender", "age"))


def test_ex1_true_histogram(config):
    assert true_histogram(toy_table(), config, ("gender", "age")).tolist() == [0, 2, 2, 1, 2, 3]
    assert len(toy_table()) == 10


def test_ex2_eq6_eq7_and_the_channel(config, channel):
    by_epsilon = parse_release_declaration(
        {
            "groups": [
                {"attributes": ["gender"], "epsilon": repr(math.log(3))[:14]},
                {"attributes": ["age"], "epsilon": repr(math.log(4))[:14]},
            ]
        },
        config,
    )
    assert [round(g.rho, 6) for g in by_epsilon.groups] == [0.5, 0.5]
    plan = parse_release_declaration(HALF, config)
    assert round(plan.epsilon, 6) == 2.484907 == round(math.log(12), 6)
    assert plan.k(10) == pytest.approx(1.0625, abs=1e-12)
    dense = channel.dense()
    brute = math.log(np.max(dense[:, None, :] / dense[None, :, :]))
    assert round(brute, 6) == 2.484907
    assert np.round(dense[1], 4).tolist() == [0.125, 0.5, 0.125, 0.0417, 0.1667, 0.0417]
    gender = target_channel(plan, config, ("gender",)).dense()
    assert gender.tolist() == [[0.75, 0.25], [0.25, 0.75]]
    age = target_channel(plan, config, ("age",)).dense()
    assert np.allclose(np.diag(age), 2 / 3) and np.isclose(age[0, 1], 1 / 6)
    mean, var = release_moments(Z, channel)
    assert np.round(mean, 4).tolist() == [0.875, 1.75, 1.875, 1.2917, 1.9167, 2.2917]
    assert np.round(var, 4).tolist() == [0.776, 1.1562, 1.2552, 0.9566, 1.2951, 1.4358]
    assert round(expected_bt_l2(Z, channel), 3) == 1.199


def test_ex2_monte_carlo_agrees_with_the_exact_moments(config, channel):
    # 20,000 seeded releases (spec: mean [0.872, 1.75, ...], variance [0.779, 1.151, ...])
    from scoring.dp.pk import run_pk

    plan = parse_release_declaration(HALF, config)
    codes = table_codes(toy_table(), config, ("gender", "age"))
    rng = np.random.default_rng(1)
    ys = np.array(
        [
            histogram_of_codes(run_pk(codes, plan, config, rng, shuffle=False), (2, 3))
            for _ in range(20_000)
        ]
    )
    mean, var = release_moments(Z, channel)
    assert np.all(np.abs(ys.mean(axis=0) - mean) < 4 * np.sqrt(var / 20_000))
    assert np.allclose(ys.var(axis=0), var, rtol=0.05)


def test_ex3_reconstruction_steps_and_bi(channel):
    y = np.array([1, 2, 1, 2, 1, 3], dtype=float)
    assert np.round(reconstruct(y, channel, max_iter=1).estimate, 4).tolist() == [
        1.375,
        1.625,
        1.5,
        1.7917,
        1.5417,
        2.1667,
    ]
    assert np.round(reconstruct(y, channel, max_iter=2).estimate, 4).tolist() == [
        1.1634,
        1.6279,
        1.3297,
        1.8706,
        1.4019,
        2.6065,
    ]
    br = reconstruct(y, channel)
    assert br.iterations == 126 and br.converged
    assert np.round(br.estimate, 6).tolist() == [
        0.067716,
        2.960178,
        4.4e-05,
        2.421644,
        3e-06,
        4.550415,
    ]
    assert br.estimate.sum() == pytest.approx(10)
    fine = reconstruct(y, channel, tol=1e-9)
    assert fine.iterations == 2631
    assert np.round(fine.estimate, 6).tolist() == [0.025372, 2.978477, 0.0, 2.452024, 0.0, 4.544127]
    assert (np.round(invert(y, channel), 4) + 0).tolist() == [0, 4, -1, 2.6667, -1.3333, 5.6667]
    assert l2(y, Z) == 2.0 and round(spearman(y, Z), 4) == 0.4919
    assert round(l2(br.estimate, Z), 4) == 3.6539 and round(spearman(br.estimate, Z), 4) == 0.3339


def test_ex4_spearman_with_ties():
    assert round(spearman([3, 1, 2, 2, 5, 4], Z), 6) == 0.215614
    # the no-ties formula 1 − 6Σd²/(V(V²−1)) on the average ranks gives another number
    ranks_est, ranks_z = [4, 1, 2.5, 2.5, 6, 5], [1, 4, 4, 2, 4, 6]
    d2 = sum((a - b) ** 2 for a, b in zip(ranks_est, ranks_z, strict=True))
    assert round(1 - 6 * d2 / (6 * 35), 6) == 0.271429
    assert spearman([5] * 6, Z) == 0.0
    assert spearman(Z, Z) == 1.0


def test_ex5_laplace_answers(config):
    table = toy_table()
    expected = {
        ("histogram", "1"): [0.5759, 5.1639, 3.6031, -0.5952, 0.9795, 5.7496],
    }
    query = parse_query(
        {"type": "histogram", "attributes": ["gender", "age"], "epsilon": "1"}, config
    )
    assert query.sensitivity == 2 and query.scale == 2.0
    truth = query_truth(table, config, query)
    answer = truth + seeded_laplace_noise(6, scale=query.scale, rng=np.random.default_rng(7))
    assert np.round(answer, 4).tolist() == expected[("histogram", "1")]
    assert round(l2(answer, Z), 4) == 4.9049 and round(spearman(answer, Z), 4) == 0.8804
    post = postprocess_counts(answer, 10, "clamp_rescale")
    assert np.round(post, 4).tolist() == [0.3583, 3.213, 2.2419, 0.0, 0.6094, 3.5774]
    assert round(l2(post, Z), 4) == 2.2193 and round(spearman(post, Z), 4) == 0.8804
    gender = parse_query({"type": "histogram", "attributes": ["gender"], "epsilon": "0.5"}, config)
    truth = query_truth(table, config, gender)
    assert truth.tolist() == [4, 6]
    noisy = truth + seeded_laplace_noise(2, scale=gender.scale, rng=np.random.default_rng(7))
    assert np.round(noisy, 4).tolist() == [5.1517, 12.3278]
    count = parse_query(
        {"type": "count", "where": {"gender": "M", "age": "25-34"}, "epsilon": "0.5"}, config
    )
    assert count.sensitivity == 1 and query_truth(table, config, count).tolist() == [3]
    noisy = query_truth(table, config, count) + seeded_laplace_noise(
        1, scale=count.scale, rng=np.random.default_rng(7)
    )
    assert round(float(noisy[0]), 4) == 3.5759


def test_ex5_density_tail_and_rms():
    assert round(laplace_density(3, 2, 2), 6) == round(laplace_density(3, 4, 2), 6) == 0.151633
    ratio = max(
        laplace_density(v, 0, 2) / laplace_density(v, 2, 2) for v in np.linspace(-5, 5, 101)
    )
    assert ratio == pytest.approx(math.e)
    assert round(math.exp(-3), 6) == 0.049787
    assert [round(it_rms_l2(x, cells=6, sensitivity=2, epsilon=1), 4) for x in (1, 2, 3)] == [
        6.9282,
        13.8564,
        20.7846,
    ]
    assert l2_crossing(1.199, cells=[6], sensitivity=2, epsilon=1) == 1


def test_ex5_ledger_sequence():
    state = LedgerState(budget=parse_epsilon("1"))
    state = ledger_charge(state, parse_epsilon("0.25"))
    assert exact_text(state.remaining) == "0.75"
    state = ledger_charge(state, parse_epsilon("0.25"))
    assert exact_text(state.remaining) == "0.5"
    state = ledger_charge(state, parse_epsilon("1/3"))
    assert (exact_text(state.spent), exact_text(state.remaining)) == ("5/6", "1/6")
    with pytest.raises(DPError) as refused:
        ledger_charge(state, parse_epsilon("0.2"))
    assert str(refused.value) == (
        "refused: query 4 asks epsilon 0.2 but only 1/6 (= 0.166667) of the level's budget 1 is "
        "left (spent 5/6 (= 0.833333) in 3 earlier charges); nothing was charged"
    )
    state = ledger_charge(state, parse_epsilon("1/6"))
    assert state.spent == 1 and state.remaining == 0 and state.charges == 4
    with pytest.raises(DPError, match="refused: query 5 asks epsilon 0.000001"):
        ledger_charge(state, parse_epsilon("0.000001"))


def test_fourteen_charges_of_one_fourteenth_land_exactly_on_the_budget():
    state = LedgerState(budget=Fraction(1))
    for _ in range(14):
        state = ledger_charge(state, parse_epsilon("1/14"))
    assert state.remaining == 0
    floats = 0.0
    for _ in range(14):
        floats += 1 / 14
    assert floats != 1.0  # why the ledger is exact


def test_ex6_rr_and_grr():
    keep = [round(grr_probabilities(e, 2)[0], 4) for e in (0, 0.1, 0.5, 0.75, 1.0, 1.5, 5)]
    assert keep == [0.5, 0.525, 0.6225, 0.6792, 0.7311, 0.8176, 0.9933]
    for size, (k, o, r) in {3: (0.5761, 0.2119, 0.3642), 10: (0.2320, 0.0853, 0.1466)}.items():
        p_keep, p_other = grr_probabilities(1.0, size)
        assert (round(p_keep, 4), round(p_other, 4), round(rho_from_epsilon(1.0, size), 4)) == (
            k,
            o,
            r,
        )
        assert math.log(p_keep / p_other) == pytest.approx(1.0)
        rho = rho_from_epsilon(1.0, size)
        assert math.log((1 + (size - 1) * rho) / (1 - rho)) == pytest.approx(1.0)


def test_ex7_platform_release_seed_7(config):
    plan = parse_release_declaration(HALF, config)
    table = toy_table()
    unshuffled = pk_release(table, config, plan, np.random.default_rng(7), shuffle=False)
    assert list(map(tuple, unshuffled.to_numpy())) == [
        ("F", "<=17"),
        ("F", "25-34"),
        ("M", "25-34"),
        ("M", "18-24"),
        ("M", "18-24"),
        ("F", "25-34"),
        ("M", "<=17"),
        ("F", "18-24"),
        ("F", "18-24"),
        ("F", "18-24"),
    ]
    y = true_histogram(unshuffled, config, ("gender", "age"))
    assert y.tolist() == [1, 3, 2, 1, 2, 1]
    assert round(l2(y, Z), 4) == 2.4495 and round(spearman(y, Z), 4) == 0.2951
    channel = target_channel(plan, config, ("gender", "age"))
    br = reconstruct(y, channel)
    assert br.iterations == 165
    assert np.round(br.estimate, 6).tolist() == [
        0.000882,
        4.49567,
        2.519685,
        0.807811,
        2.083584,
        0.092367,
    ]
    assert round(l2(br.estimate, Z), 4) == 3.8726 and round(spearman(br.estimate, Z), 4) == 0.3339
    codes_in = table_codes(table, config, plan.attributes)
    codes_out = table_codes(unshuffled, config, plan.attributes)
    retention = retention_test(codes_in, codes_out, plan)
    assert [
        (r["kept"], round(r["expected"], 4), round(r["sd"], 4), round(r["z"], 4)) for r in retention
    ] == [
        (8, 7.5, 1.3693, 0.3651),
        (7, 6.6667, 1.4907, 0.2236),
    ]
    mean, var = release_moments(Z, channel)
    assert np.round((y - mean) / np.sqrt(var), 4).tolist() == [
        0.1419,
        1.1625,
        0.1116,
        -0.2982,
        0.0732,
        -1.078,
    ]
    shuffled = pk_release(table, config, plan, np.random.default_rng(7))
    assert list(map(tuple, shuffled.to_numpy())) == [
        ("M", "<=17"),
        ("F", "18-24"),
        ("M", "25-34"),
        ("F", "18-24"),
        ("M", "18-24"),
        ("F", "25-34"),
        ("F", "18-24"),
        ("F", "<=17"),
        ("M", "18-24"),
        ("F", "25-34"),
    ]


def test_ex8_joint_group(config):
    rho = rho_from_epsilon(math.log(12), 6)
    assert round(rho, 6) == 0.647059 and rho == pytest.approx(11 / 17)
    plan = parse_release_declaration(
        {"groups": [{"attributes": ["age", "gender"], "rho": rho}]}, config
    )
    assert plan.k(10) == pytest.approx(1.0625)
    channel = target_channel(plan, config, ("gender", "age"))
    assert np.round(channel.apply(Z), 4).tolist() == [
        0.5882,
        1.8824,
        1.8824,
        1.2353,
        1.8824,
        2.5294,
    ]
    assert round(expected_bt_l2(Z, channel), 4) == 0.8151
    gender = target_channel(plan, config, ("gender",))
    assert np.round(gender.dense(), 6).tolist() == [[0.823529, 0.176471], [0.176471, 0.823529]]
    assert np.round(gender.apply([4, 6]), 4).tolist() == [4.3529, 5.6471]
    # the brute-force marginal of the full 6-cell channel equals A_S for gender
    full = channel.dense()
    marginal = full.reshape(2, 3, 2, 3).sum(axis=3).mean(axis=1)  # any input age: same marginal
    assert np.allclose(marginal, gender.dense())


def test_ex9_numbers():
    y = numeric_ldp(
        [23, 35, 41, 58, 62], low=0, high=100, epsilon=1.0, rng=np.random.default_rng(7)
    )
    assert np.round(y, 4).tolist() == [51.7937, 193.1957, 121.156, -21.7587, 10.9729]
    assert round(float(y.mean()), 4) == 71.0719
    scale = 100 / 0.1
    assert scale == 1000
    assert round(laplace_bound(scale, 0.95), 1) == 2995.7
    assert round(laplace_bound(scale, 0.80), 1) == 1609.4
    assert round(laplace_bound(100 / (0.1 * 100), 0.95), 4) == 29.9573
    assert round(laplace_bound(100 / (0.1 * 100_000), 0.95), 4) == 0.0300
    assert round(math.sqrt(2) * 100 / (0.1 * math.sqrt(100)), 2) == 141.42


def test_ex10_live_scores_reveal_the_histogram():
    def score(estimate):  # what a live leaderboard would show
        return l2(estimate, Z)

    base = score(np.zeros(6)) ** 2  # ‖z‖²
    rebuilt = [(base - score(np.eye(6)[c]) ** 2 + 1) / 2 for c in range(6)]
    assert np.round(rebuilt, 9).tolist() == TOY_Z  # V + 1 = 7 scores


def test_ex11_declared_laplace_counts():
    answer = Z + seeded_laplace_noise(6, scale=2.0, rng=np.random.default_rng(7))
    honest = laplace_counts_test(answer, Z, scale=2.0)
    assert round(honest["T"], 4) == 5.3541 and round(honest["lower"], 6) == 0.445922
    assert not honest["flagged"]
    truth = laplace_counts_test(Z, Z, scale=2.0)
    assert truth["T"] == 0 and truth["lower"] == 0 and truth["flagged"]
    bumped = laplace_counts_test(Z + np.array([25, 0, 0, 0, 0, 0]), Z, scale=2.0)
    assert bumped["T"] == 12.5 and round(bumped["lower"], 6) == 0.985177
    assert round(bumped["upper"], 4) == 0.0148 and not bumped["flagged"]


def test_eq6_charges_rho_rounded_up_and_epsilon_exactly(config):
    plan = parse_release_declaration(HALF, config)
    assert exact_text(plan.charge) == "2.48490665"
    assert plan.charge >= Fraction(math.log(12))
    mixed = parse_release_declaration(
        {
            "groups": [
                {"attributes": ["gender"], "epsilon": "1/3"},
                {"attributes": ["age"], "epsilon": "0.7"},
            ]
        },
        config,
    )
    assert mixed.charge == Fraction(1, 3) + Fraction(7, 10)
    assert release_epsilon(mixed.rhos, [2, 3]) == pytest.approx(float(mixed.charge))
    assert k_of(10, 0) == 10
