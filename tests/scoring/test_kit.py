"""The starter kit on the worked example BANK (indicators-and-kit.md B.4), exact."""

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring import kit
from scoring.kit._examples import bank, bank_config, bank_hierarchy, bank_with_decoys
from scoring.kit.methods import mdav_groups, randomized_response_probability
from scoring.kit.registry import METHODS, bind


def ints(column) -> list[int]:
    return [int(v) for v in column]


def deleted(table) -> list[int]:
    """1-based deleted rows."""
    return (np.flatnonzero((table == "").all(axis=1)) + 1).tolist()


# --- B1 generalization, B2 record removal ---------------------------------------------------


def test_b1_numeric_generalization_takes_the_low_median_of_each_group():
    h = bank_hierarchy()
    level1 = kit.generalize(bank(), bank_config(), hierarchy=h, levels={"age": 1})
    assert ints(level1["age"]) == [23, 23, 35, 35, 35, 35, 58, 58, 58, 89]
    level2 = kit.generalize(bank(), bank_config(), hierarchy=h, levels={"age": 2})
    assert ints(level2["age"]) == [31] * 6 + [58] * 4


def test_b1_pandas_median_gives_values_outside_the_column_so_only_number_columns_take_it():
    h = bank_hierarchy()
    with pytest.raises(kit.KitError, match="column 'age' must keep original values"):
        kit.generalize(bank(), bank_config(), hierarchy=h, levels={"age": 1}, median="pandas")
    raw = {
        "qi": ["sex", "pref"],
        "sa": ["income", "deposit"],
        "cross": ["sex"],
        "e2_column": "income",
        "e4_column": "deposit",
        "match_qi": None,
        "euc_sa": None,
        "domains": {"age": "number"},
    }
    config = scoring.load_config(raw, bank())
    out = kit.generalize(bank(), config, hierarchy=h, levels={"age": 1}, median="pandas")
    assert out["age"].tolist()[:6] == ["25", "25", "36.5", "36.5", "36.5", "36.5"]


def test_b1_categorical_levels_map_back_by_mode_ties_to_the_smallest():
    out = kit.generalize(bank(), bank_config(), hierarchy=bank_hierarchy(), levels={"pref": 1})
    # 関東: 東京 ×3, 埼玉 ×2 -> 東京; 近畿: 大阪 ×2, 京都 ×2 -> 京都 (smaller code point).
    assert out["pref"].tolist() == [
        "東京",
        "東京",
        "東京",
        "京都",
        "京都",
        "東京",
        "京都",
        "京都",
        "東京",
        "東京",
    ]


def test_b1_random_back_map_draws_among_the_groups_values_and_is_seeded():
    h = bank_hierarchy()
    a = kit.generalize(
        bank(), bank_config(), hierarchy=h, levels={"pref": 1}, back_map="random", seed=3
    )
    b = kit.generalize(
        bank(), bank_config(), hierarchy=h, levels={"pref": 1}, back_map="random", seed=3
    )
    assert a.equals(b)
    region = {"東京": "関東", "埼玉": "関東", "大阪": "近畿", "京都": "近畿"}
    assert [region[v] for v in a["pref"]] == [region[v] for v in bank()["pref"]]


def test_b1_value_without_definition_is_named():
    h = bank_hierarchy()
    del h["pref"]["definition"]["京都"]
    with pytest.raises(
        kit.KitError, match="column 'pref': no definition in attr_depth.json for '京都'"
    ):
        kit.generalize(bank(), bank_config(), hierarchy=h, levels={"pref": 1})


def test_b1_classes_after_age_and_pref_level_2_then_b2_removal():
    config = bank_config()
    out = kit.generalize(bank(), config, hierarchy=bank_hierarchy(), levels={"age": 2, "pref": 2})
    scores = scoring.evaluate(bank(), out, config)
    assert (scores["S1"], scores["S2"]) == (1, 5 / 4)
    removed = kit.remove_record(out, config, k=2)
    assert deleted(removed) == [4, 5, 7, 8, 9, 10]
    after = scoring.evaluate(bank(), removed, config)
    assert after["S1"] >= 2 and after["U6"] == 6


def test_removing_every_row_is_refused():
    with pytest.raises(kit.KitError, match="every row would be deleted"):
        kit.remove_record(bank(), bank_config(), k=2)


# --- B3 top/bottom coding ------------------------------------------------------------------


def test_b3_top_and_bottom_coding():
    config = bank_config()
    assert ints(kit.top_bottom_coding(bank(), config, column="age", top=63)["age"])[-3:] == [
        58,
        63,
        63,
    ]
    out = kit.top_bottom_coding(bank(), config, column="deposit", bottom=80, top=500)
    assert ints(out["deposit"]) == [80, 80, 120, 200, 150, 300, 420, 380, 500, 500]
    with pytest.raises(kit.KitError) as error:
        kit.top_bottom_coding(bank(), config, column="age", top=80)
    assert str(error.value) == "column 'age': code value 80 does not occur in the column"
    assert error.value.render("ja") == "列 'age': コード値 80 はこの列に存在しません"
    mean = kit.top_bottom_coding(bank(), config, column="deposit", top=420, rep="mean")
    assert mean["deposit"].tolist()[-3:] == ["380", "700", "700"]  # (500 + 900) / 2


# --- B4 DA, B8 YA ----------------------------------------------------------------------------


def test_b4_lattice_search_budget_2_levels_1_1_rows_9_10_deleted():
    config = bank_config(qi=("age", "pref"))
    out = kit.k_anonymize(bank(), config, hierarchy=bank_hierarchy(), k=2, budget=2)
    expected = kit.generalize(
        bank(), config, hierarchy=bank_hierarchy(), levels={"age": 1, "pref": 1}
    )
    assert deleted(out) == [9, 10]
    assert out.iloc[:8].values.tolist() == expected.iloc[:8].values.tolist()


def test_b4_budget_0_levels_2_1_nothing_deleted_and_b8_yamaoka_moves():
    config = bank_config(qi=("age", "pref"))
    out = kit.k_anonymize(bank(), config, hierarchy=bank_hierarchy(), k=2, budget=0)
    expected = kit.generalize(
        bank(), config, hierarchy=bank_hierarchy(), levels={"age": 2, "pref": 1}
    )
    assert deleted(out) == []
    assert out.values.tolist() == expected.values.tolist()
    moved = kit.yamaoka(out, config)
    assert ints(moved["income"]) == [350, 420, 610, 480, 500, 300, 650, 700, 400, 550]


def test_level_order_is_checked_for_the_lattice():
    h = bank_hierarchy()
    h["age"]["threshold_2"] = "45"
    with pytest.raises(kit.KitError, match="level 2 does not coarsen level 1"):
        kit.k_anonymize(bank(), bank_config(), hierarchy=h, k=2)


# --- B5 MDAV, B6 outliers ------------------------------------------------------------------


def test_b5_mdav_groups_and_means():
    out = kit.mdav(bank(), bank_config(), k=3, columns=["income", "deposit"])
    groups = [frozenset(np.flatnonzero(out["income"] == v) + 1) for v in pd.unique(out["income"])]
    assert set(groups) == {frozenset({8, 9, 10}), frozenset({1, 2, 3}), frozenset({4, 5, 6, 7})}
    assert float(out["income"][0]) == pytest.approx((300 + 350 + 420) / 3)
    assert mdav_groups(np.array([[0.0], [1.0], [10.0], [11.0]]), k=2).tolist() == [0, 0, 1, 1]


def test_b6_outlier_deletion_and_deletion_by_rows():
    config = bank_config()
    assert deleted(kit.delete_outliers(bank(), config, d=1, columns=["income", "deposit"])) == [10]
    assert deleted(kit.delete_rows(bank(), config, rows=[2, 5])) == [2, 5]
    with pytest.raises(kit.KitError, match="row 11 is outside 1..10"):
        kit.delete_rows(bank(), config, rows=[11])


# --- B9 attacks --------------------------------------------------------------------------------


def b9_target() -> pd.DataFrame:
    target = bank()
    target["income"] = [str(v) for v in (300, 400, 400, 500, 500, 600, 700, 600, 600, 400)]
    target["deposit"] = [str(v) for v in (0, 100, 100, 200, 200, 300, 400, 400, 500, 900)]
    return target


@pytest.mark.parametrize(
    ("columns", "duplication", "result", "hits"),
    [
        (["income", "deposit"], True, [0, 10, 10, 3, 3, 11, 6, 11, 13, 9], 4),
        (["income", "deposit"], False, [0, 10, 2, 3, 4, 11, 6, 5, 13, 9], 6),
        (["age", "sex", "pref", "income", "deposit"], True, None, 9),
    ],
)
def test_b9_neighbor_att_then_attack_id(columns, duplication, result, hits):
    found = kit.neighbor_att(b9_target(), bank_with_decoys(), columns=columns, n=3)
    guess = kit.attack_id(found, duplication=duplication)
    if result is not None:
        assert guess.tolist() == result
    assert int(np.sum(guess == np.arange(10))) == hits


def test_b9_candidates_are_0_based_ascending_with_ties_to_the_lower_index():
    found = kit.neighbor_att(b9_target(), bank_with_decoys(), columns=["income", "deposit"], n=3)
    assert found.index[7].tolist() == [11, 13, 5]  # 11 and 13 tie at the same distance
    assert found.distance[7][0] == found.distance[7][1]
    assert np.all(np.diff(found.distance, axis=1) >= 0)


def test_correspondence_table_from_guesses_is_read_by_the_platform_reader():
    guess = kit.attack_id(
        kit.neighbor_att(b9_target(), bank_with_decoys(), columns=["income"], n=1)
    )
    text = kit.correspondence_lines(guess).encode()
    read = scoring.read_correspondence(text, rows=10, reference_rows=15)
    assert read.tolist() == (guess + 1).tolist()


# --- B10 randomized response, B.1.3 Laplace -------------------------------------------------


def test_b10_keep_probabilities():
    table = [0.5, 0.525, 0.622, 0.679, 0.731, 0.818, 0.993]
    got = [round(randomized_response_probability(e, 2), 3) for e in (0, 0.1, 0.5, 0.75, 1, 1.5, 5)]
    assert got == table
    assert round(randomized_response_probability(1.0, 5), 4) == 0.4046
    assert round((1 - randomized_response_probability(1.0, 5)) / 4, 4) == 0.1488


def test_randomized_response_keep_rate_and_other_values_within_4_sigma():
    n = 100_000
    column = np.array(["a", "b", "c", "d", "e"], dtype=object)[np.arange(n) % 5]
    table = pd.DataFrame({"q": column, "s": ["1"] * n}, dtype=object)
    config = scoring.load_config(
        {
            "qi": ["q"],
            "sa": ["s"],
            "cross": ["q"],
            "e2_column": "s",
            "e4_column": "s",
            "match_qi": None,
            "euc_sa": None,
        },
        table,
    )
    out = kit.randomized_response(table, config, columns=["q"], epsilon=1.0, seed=5)
    p = randomized_response_probability(1.0, 5)
    kept = np.mean(out["q"].to_numpy() == column)
    assert abs(kept - p) < 4 * np.sqrt(p * (1 - p) / n)
    moved_a = out["q"].to_numpy()[(column == "a") & (out["q"].to_numpy() != "a")]
    shares = pd.Series(moved_a).value_counts(normalize=True)
    assert sorted(shares.index) == ["b", "c", "d", "e"]
    assert np.all(np.abs(shares - 0.25) < 4 * np.sqrt(0.25 * 0.75 / moved_a.size))


def test_laplace_scale_is_range_over_epsilon_and_the_tail_bound_holds():
    n = 100_000
    table = pd.DataFrame({"q": ["1"] * n, "s": ["50"] * n}, dtype=object)
    config = scoring.load_config(
        {
            "qi": ["q"],
            "sa": ["s"],
            "cross": ["q"],
            "e2_column": "s",
            "e4_column": "s",
            "match_qi": None,
            "euc_sa": None,
        },
        table,
    )
    out = kit.laplace_ldp(table, config, columns=["s"], epsilon=1.0, value_range=[100, 0], seed=2)
    noise = out["s"].astype(float).to_numpy() - 50
    b, beta = 100.0, 0.05
    tail = np.mean(np.abs(noise) > b * np.log(1 / beta))
    assert abs(tail - beta) < 4 * np.sqrt(beta * (1 - beta) / n)
    with pytest.raises(kit.KitError, match="must keep original values"):
        kit.laplace_ldp(table, config, columns=["q"], epsilon=1.0)
    snapped = kit.laplace_ldp(
        bank(), bank_config(), columns=["age"], epsilon=1.0, snap=True, seed=1
    )
    assert set(snapped["age"]) <= set(bank()["age"])


# --- every method's output is a valid submission --------------------------------------------

DEFAULTS = {
    "generalize": {"levels": "age:1,pref:2"},
    "k_anonymize": {"k": "2", "budget": "6"},
    "remove_record": {"k": "2", "columns": "sex"},
    "delete_rows": {"rows": "1,3"},
    "delete_random": {"d": "2"},
    "delete_outliers": {"d": "1"},
    "top_bottom_coding": {"column": "age", "top": "63", "bottom": "27"},
    "qi_unify": {"columns": "pref"},
    "laplace_ldp": {"columns": "income,deposit", "epsilon": "1"},
    "randomized_response": {"columns": "sex,pref", "epsilon": "1"},
    "sa_noise": {"scale": "10"},
    "sa_class_mean": {},
    "swap_in_class": {},
    "yamaoka": {},
    "mdav": {"k": "3"},
}


def test_every_registered_method_has_a_validity_case():
    assert set(DEFAULTS) == set(METHODS)


@pytest.mark.parametrize("name", sorted(DEFAULTS))
def test_every_method_gives_a_valid_submission_and_chains(name):
    config = bank_config()
    entry, kwargs = bind(METHODS, name, DEFAULTS[name])
    if entry.random:
        kwargs["seed"] = 4
    if entry.hierarchy:
        kwargs["hierarchy"] = bank_hierarchy()
    start = kit.delete_rows(bank(), config, rows=[4])  # a deleted row stays deleted
    out = entry.function(start, config, **kwargs)
    scoring.validate_submission(bank(), out, config)
    assert list(out.columns) == list(bank().columns) and len(out) == 10
    assert 4 in deleted(out)
    if entry.random:
        assert out.equals(entry.function(start, config, **{**kwargs, "seed": 4}))
