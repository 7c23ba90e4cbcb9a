"""Reproducing seed 000 (Y): the exact checks of spec §11.1–11.2 and §10.2, the statistical
checks of §11.3 (seeded, fixed tolerances) and the trends of §11.4."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from scoring.dp import (
    equal_rho,
    k_of,
    l2,
    load_dp_config,
    parse_config,
    release_epsilon,
    run_baselines,
    synthetic_table,
    table_codes,
    target_channel,
    true_histogram,
)
from scoring.dp.baselines import expected_bt_l2, it_spearman_curve, l2_crossing, rank_crossing
from scoring.dp.laplace import it_rms_l2
from scoring.dp.pk import per_attribute_plan
from scoring.dp.plausibility import laplace_counts_test, release_moments, retention_test

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "dp"
Z = np.array([78, 298, 558, 338, 189, 146, 102, 144, 805, 1538, 855, 361, 350, 278])
EPSILONS = (0.1, 1.0, 4.0)
TABLE5_IT_L2 = {
    1: (106, 11, 3),
    10: (1058, 106, 26),
    14: (1482, 148, 37),
    55: (5821, 582, 146),
    62: (6562, 656, 164),
    89: (9419, 942, 235),
    91: (9631, 963, 241),
    109: (11536, 1154, 288),
    436: (46142, 4614, 1154),
}
TABLE5_IT_SP = {
    1: (0.98, 1.00, 1.00),
    10: (0.73, 0.98, 1.00),
    55: (0.26, 0.83, 0.97),
    109: (0.18, 0.71, 0.93),
    436: (0.08, 0.28, 0.71),
}


@pytest.fixture(scope="module")
def movielens():
    config = load_dp_config(FIXTURES / "movielens_round.json")
    counts = pd.read_csv(FIXTURES / "movielens_counts.csv")
    table = synthetic_table(counts["count"].to_numpy(), config, ("gender", "age"))
    return config, table


def channel_for(config, rho):
    return target_channel(per_attribute_plan(config, rho), config, ("gender", "age"))


def test_the_fixture_holds_the_fourteen_counts(movielens):
    config, table = movielens
    assert len(table) == 6040
    z = true_histogram(table, config, ("gender", "age"))
    assert z.tolist() == Z.tolist()
    assert z[:7].sum() == 1709 and z[7:].sum() == 4331


def test_table2_lambda_k_and_rho():
    assert [round(2 / e, 4) for e in (0.1, 1.0, 2.0, 3.2, 3.7, 4.0)] == [
        20,
        2,
        1,
        0.625,
        0.5405,
        0.5,
    ]
    assert [round(k_of(6040, e), 2) for e in (0.1, 1.0, 2.0, 3.2, 3.7, 4.0)] == [
        4945.32,
        818.29,
        111.61,
        11.03,
        4.69,
        3.03,
    ]
    exact = [round(equal_rho(e, [2, 7]), 4) for e in (0.1, 1.0, 2.0, 3.2, 3.7, 4.0)]
    assert exact == [0.0114, 0.1335, 0.2991, 0.5036, 0.5812, 0.6243]
    printed = (0.01, 0.10, 0.22, 0.36, 0.41, 0.44)  # 表 2's ρ is ε/9, not eq. (6) (§13.2)
    assert [round(release_epsilon([r, r], [2, 7]), 3) for r in printed] == [
        0.088,
        0.776,
        1.537,
        2.351,
        2.640,
        2.816,
    ]


def test_p3_it_rows_of_table5_within_054():
    for x, printed in TABLE5_IT_L2.items():
        for eps, value in zip(EPSILONS, printed, strict=True):
            assert abs(it_rms_l2(x, cells=14, sensitivity=2, epsilon=eps) - value) <= 0.54, (x, eps)
    assert round(it_rms_l2(14, cells=14, sensitivity=2, epsilon=0.1), 2) == 1481.62
    assert round(it_rms_l2(109, cells=14, sensitivity=2, epsilon=0.1), 2) == 11535.48


def test_p4_table6_l2_crossings_from_the_printed_batch_values():
    crossings = [
        l2_crossing(best, cells=[14], sensitivity=2, epsilon=eps)
        for best, eps in ((1430, 0.1), (959, 1.0), (287, 4.0))
    ]
    assert crossings == [14, 91, 109]
    assert round(it_rms_l2(90, cells=14, sensitivity=2, epsilon=1.0), 1) == 952.5
    ratios = [
        round(it_rms_l2(1, cells=14, sensitivity=2, epsilon=eps) / best, 4)
        for best, eps in ((1430, 0.1), (959, 1.0), (287, 4.0))
    ]
    assert ratios == [0.0740, 0.0110, 0.0092]


def test_uniform_prior_l2():
    assert round(l2(np.full(14, 6040 / 14), Z), 1) == 1441.3


def test_p5_expected_bt_under_the_three_rho_rules(movielens):
    config, _ = movielens
    rules = {
        "linear": [e / 9 for e in EPSILONS],
        "table2": [0.01, 0.10, 0.44],
        "exact": [equal_rho(e, [2, 7]) for e in EPSILONS],
    }
    expected = {
        "linear": [1427.7, 1303.0, 862.2],
        "table2": [1429.0, 1317.0, 868.3],
        "exact": [1427.4, 1274.8, 603.1],
    }
    for rule, rhos in rules.items():
        got = [round(expected_bt_l2(Z, channel_for(config, rho)), 1) for rho in rhos]
        assert got == expected[rule], rule
    errors = [channel_for(config, e / 9).apply(Z)[9] - Z[9] for e in (0.1, 4.0)]
    assert [round(v, 1) for v in errors] == [-1097.6, -689.5]


def test_p5_bt_800_at_epsilon_4_needs_rho_04887(movielens):
    config, _ = movielens
    assert round(expected_bt_l2(Z, channel_for(config, 0.4887)), 0) == 800


def test_p8_adult_demo_truth_expected_bt_and_crossings():
    raw = json.loads((FIXTURES / "adult_round.json").read_text())
    config = parse_config(raw)
    assert len(config.workload) == 6
    table = pd.read_csv(FIXTURES / "adult_dp.csv", dtype=str, keep_default_na=False)
    z = true_histogram(table, config, ("sex", "ageband"))
    assert z.tolist() == [
        186,
        2322,
        2800,
        2409,
        1006,
        831,
        1217,
        209,
        2853,
        5679,
        5742,
        2293,
        2142,
        2872,
    ]
    assert len(table) == 32_561
    single = parse_config({**raw, "workload": [{"id": "sa", "attributes": ["sex", "ageband"]}]})
    values, crossings = [], []
    for eps in EPSILONS:
        rho = equal_rho(eps, [2, 7])
        value = expected_bt_l2(
            z, target_channel(per_attribute_plan(single, rho), single, ("sex", "ageband"))
        )
        values.append(round(value, 1))
        crossings.append(l2_crossing(value, cells=[14], sensitivity=2, epsilon=eps))
    assert values == [6104.0, 5427.1, 2518.9]
    assert crossings == [58, 513, 953]


def test_p9_plausibility_on_movielens(movielens):
    config, table = movielens
    plan = per_attribute_plan(config, equal_rho(0.1, [2, 7]))
    mean, var = release_moments(Z, target_channel(plan, config, ("gender", "age")))
    honest = np.array([435, 435, 460, 428, 436, 374, 445, 430, 407, 448, 451, 431, 448, 412])
    assert round(float(np.max(np.abs((honest - mean) / np.sqrt(var)))), 3) == 2.672
    assert round(float(np.max(np.abs((Z - mean) / np.sqrt(var)))), 1) == 54.3
    codes = table_codes(table, config, ("gender", "age"))
    retention = retention_test(codes, codes, plan)
    assert [r["kept"] for r in retention] == [6040, 6040]
    assert [round(r["z"], 1) for r in retention] == [76.8, 183.2]
    assert all(r["flagged"] for r in retention)
    laplace = laplace_counts_test(
        Z + np.random.default_rng(2016).laplace(0, 20, size=14), Z, scale=20
    )
    assert round(laplace["T"], 3) == 12.729 and round(laplace["lower"], 4) == 0.3971
    assert not laplace["flagged"]
    assert laplace_counts_test(Z, Z, scale=20)["flagged"]
    shifted = laplace_counts_test(Z + 5 * np.where(np.arange(14) % 2, 1, -1), Z, scale=20)
    assert shifted["T"] == 3.5 and f"{shifted['lower']:.2e}" == "1.86e-05" and shifted["flagged"]


# §11.3: statistical checks, seeded, with the spec's tolerances ------------------------------

S1 = {  # (rule, ε): (BT L2, BT ρ_s, BR L2, BR ρ_s) as the spec's oracle prints them
    ("paper_linear", 0.1): (1431, 0.17, 2144, 0.24),
    ("paper_linear", 1.0): (1305, 0.84, 852, 0.75),
    ("paper_linear", 4.0): (866, 0.97, 249, 0.94),
    ("exact", 0.1): (1428, 0.22, 1991, 0.30),
    ("exact", 1.0): (1278, 0.87, 850, 0.74),
    ("exact", 4.0): (606, 0.98, 129, 0.98),
}


@pytest.fixture(scope="module")
def baselines(movielens):
    config, table = movielens
    return {(rule, eps): run_baselines(table, config, eps, rho_rule=rule) for rule, eps in S1}


@pytest.mark.parametrize("key", sorted(S1))
def test_s1_bt_and_br_l2_within_tolerance(movielens, baselines, key):
    config, _ = movielens
    rule, eps = key
    result = baselines[key]
    rho = eps / 9 if rule == "paper_linear" else equal_rho(eps, [2, 7])
    assert result["rho"] == pytest.approx(rho)
    expected_bt = expected_bt_l2(Z, channel_for(config, rho))
    assert result["expected_bt_l2"] == pytest.approx(expected_bt)
    assert abs(result["BT"]["l2"] - expected_bt) <= 0.01 * expected_bt
    assert abs(result["BR"]["l2"] - S1[key][2]) <= 0.25 * S1[key][2]


@pytest.mark.parametrize("key", [k for k in sorted(S1) if k[1] != 0.1])
def test_s1_spearman_within_01(baselines, key):
    assert abs(baselines[key]["BT"]["spearman"] - S1[key][1]) <= 0.1
    assert abs(baselines[key]["BR"]["spearman"] - S1[key][3]) <= 0.1


def test_s1_spearman_at_epsilon_01_over_repetitions(movielens):
    """At ε = 0.1 one 30-trial median of ρ_s spreads wider than ±0.1 (seed 2016 gives BR 0.44),
    so the median over 10 seeded repetitions is compared, as S1 itself reports a median over
    20 repetitions."""
    config, table = movielens
    bt, br = [], []
    for seed in range(10):
        result = run_baselines(table, config, 0.1, rho_rule="paper_linear", seed=seed)
        bt.append(result["BT"]["spearman"])
        br.append(result["BR"]["spearman"])
    assert abs(np.median(bt) - 0.17) <= 0.1
    assert abs(np.median(br) - 0.24) <= 0.1


@pytest.fixture(scope="module")
def common_noise():
    return np.random.default_rng(2016).laplace(0, 1, size=(20_000, 14))


def test_p6_it_spearman_against_table5(common_noise):
    for k, eps in enumerate(EPSILONS):
        curve = it_spearman_curve(
            [Z.astype(float)],
            [common_noise],
            sensitivity=2,
            epsilon=eps,
            aggregate="mean_of_measures",
        )
        for x, printed in TABLE5_IT_SP.items():
            assert abs(curve(x) - printed[k]) <= 0.06, (x, eps)
    curve = it_spearman_curve(
        [Z.astype(float)], [common_noise], sensitivity=2, epsilon=0.1, aggregate="mean_of_measures"
    )
    assert [round(curve(x), 3) for x in (1, 10, 55, 109, 436)] == [
        0.981,
        0.699,
        0.236,
        0.125,
        0.030,
    ]


def test_p7_rank_crossings_within_10_percent(common_noise):
    expected = (71, 56, 58)
    for eps, threshold, target in zip(EPSILONS, (0.19, 0.83, 0.97), expected, strict=True):
        curve = it_spearman_curve(
            [Z.astype(float)],
            [common_noise],
            sensitivity=2,
            epsilon=eps,
            aggregate="mean_of_measures",
        )
        found = rank_crossing(curve, threshold, x_max=1000, scan=False)
        assert abs(found - target) <= 0.1 * target, (eps, found)


def test_it_rows_of_the_baselines(baselines):
    result = baselines[("exact", 1.0)]
    rows = {row["x"]: row for row in result["IT"]}
    assert sorted(rows) == [1, 10, 14, 55, 62, 89, 91, 109, 436]
    assert rows[91]["l2"] == pytest.approx(it_rms_l2(91, cells=14, sensitivity=2, epsilon=1.0))
    assert rows[1]["spearman"] > 0.99 and rows[436]["spearman"] < rows[55]["spearman"]
    assert result["prior"]["l2"] == pytest.approx(1441.3339, abs=1e-3)
    assert result["prior"]["spearman"] == 0


# §11.4: trends ---------------------------------------------------------------------------


@pytest.mark.parametrize("rule", ["paper_linear", "exact"])
def test_trend_it1_beats_batch(baselines, rule):
    for eps in EPSILONS:
        result = baselines[(rule, eps)]
        it1 = next(row for row in result["IT"] if row["x"] == 1)
        assert it1["l2"] < min(result["BT"]["l2"], result["BR"]["l2"])
        assert it1["spearman"] >= max(result["BT"]["spearman"], result["BR"]["spearman"]) - 1e-9


@pytest.mark.parametrize("rule", ["paper_linear", "exact"])
def test_trend_reconstruction_hurts_at_01_and_helps_at_1_and_4(baselines, rule):
    assert baselines[(rule, 0.1)]["BR"]["l2"] > baselines[(rule, 0.1)]["BT"]["l2"]
    assert baselines[(rule, 1.0)]["BR"]["l2"] < baselines[(rule, 1.0)]["BT"]["l2"]
    assert baselines[(rule, 4.0)]["BR"]["l2"] < baselines[(rule, 4.0)]["BT"]["l2"]


def test_trend_l2_crossing_grows_with_epsilon_under_paper_linear(baselines):
    crossings = [baselines[("paper_linear", eps)]["crossing"]["l2"] for eps in EPSILONS]
    assert crossings[0] < crossings[1] < crossings[2]
    assert crossings[0] == 14
    # with exact ρ the crossing need not grow (spec: 14, 81, 49); the tests must not assume it


def test_trend_bt_spearman_low_at_01_high_at_4(movielens):
    config, table = movielens
    for rule in ("paper_linear", "exact"):
        low = np.median(
            [
                run_baselines(table, config, 0.1, rho_rule=rule, seed=s)["BT"]["spearman"]
                for s in range(5)
            ]
        )
        assert low < 0.3
    assert run_baselines(table, config, 4.0, rho_rule="exact")["BT"]["spearman"] > 0.9


def test_baselines_are_reproducible_and_measure_of_medians_differs(movielens):
    config, table = movielens
    first = run_baselines(table, config, 0.1)
    assert run_baselines(table, config, 0.1) == first
    raw = config.as_dict()
    literal = parse_config(
        {**raw, "baselines": {**raw["baselines"], "aggregate": "measure_of_medians"}}
    )
    other = run_baselines(table, literal, 0.1)
    # S3: the per-cell median of 30 releases ranks far better than one release (0.52 vs 0.17)
    assert other["BT"]["spearman"] > first["BT"]["spearman"] + 0.15


def test_the_dp_fixtures_are_up_to_date():
    import importlib.util

    path = FIXTURES.parents[1] / "scripts" / "make_dp_fixtures.py"
    spec = importlib.util.spec_from_file_location("make_dp_fixtures", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.main(["--check"]) == 0


def test_baselines_run_at_the_largest_budget(movielens):
    config, table = movielens
    for rule in ("exact", "paper_linear"):
        result = run_baselines(table, config, 100.0, rho_rule=rule, trials=2)
        assert result["rho"] < 1
        assert result["BT"]["l2"] < 1  # at ε = 100 the release is the table
