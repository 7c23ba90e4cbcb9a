"""Seed 004's Table 10, single methods (indicators-and-kit.md B.1-B.3): every guaranteed
direction holds exactly on Adult and on a generated 2015-shaped table; every expected
tendency holds on Adult.

Directions compare the method's output with its input, the original itself (the identity
submission). "=" is exact for counts and k-anonymity, within 1e-9 for means.
"""

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np
import pytest

import scoring
from scoring import datasets, kit

ROOT = Path(__file__).resolve().parents[2]
TOL = 1e-9


@dataclass(frozen=True)
class Data:
    table: object
    config: object
    hierarchy: dict
    outside_cross: tuple  # QI columns outside cross (categorical in the example hierarchy)
    cross_column: str
    numeric_qi: str  # a QI with a numeric hierarchy


@cache
def adult() -> Data:
    table = scoring.read_table(ROOT / "fixtures" / "adult.csv")
    config = scoring.load_config(
        {
            **json.loads((ROOT / "fixtures" / "adult_round.json").read_text()),
            "indicators": {"sa": "income"},  # Part A's L and T on the income column
        },
        table,
    )
    hierarchy = kit.load_hierarchy(kit.attr_depth_example(table, config))
    return Data(
        table, config, hierarchy, ("native-country", "race", "marital-status"), "sex", "age"
    )


@cache
def generated() -> Data:
    # Six of the 13 QI, so that k = 2 keeps rows; the other seven are columns in no role.
    table = datasets.generate_original(5000, seed=11)
    qi = ["sex", "age_band", "household_size", "city_class", "tenure", "dwelling_type"]
    raw = {
        **datasets.default_config_dict(),
        "qi": qi,
        "cross": qi[:3],
        "indicators": {"sa": "income_band"},
    }
    config = scoring.load_config(raw, table)
    hierarchy = kit.load_hierarchy(kit.attr_depth_example(table, config))
    outside_cross = ("city_class", "tenure", "dwelling_type")
    return Data(table, config, hierarchy, outside_cross, "sex", "age_band")


@cache
def base(name: str) -> dict:
    data = DATA[name]()
    return scoring.evaluate(data.table, data.table, data.config)


DATA = {"adult": adult, "2015": generated}


def value_at(data: Data, column: str, quantile: float) -> str:
    """A value of the column (so top/bottom coding accepts it) near a quantile."""
    values = np.sort(data.table[column].astype(float).to_numpy())
    return str(int(values[int(quantile * (values.size - 1))]))


@dataclass(frozen=True)
class Case:
    name: str
    apply: object
    guaranteed: dict = field(default_factory=dict)
    expected: dict = field(default_factory=dict)


ZERO_U = {m: "0" for m in ("U1", "U2", "U3", "U4", "U5", "U6")}
SAME_S = {"S1": "=", "S2": "="}
SA_ONLY = {"U3": "0", "U6": "0", **SAME_S, "E1": "="}

CASES = [
    Case(
        "generalize (QI outside cross)",
        lambda d: kit.generalize(
            d.table, d.config, hierarchy=d.hierarchy, levels=dict.fromkeys(d.outside_cross, 1)
        ),
        {**ZERO_U, "S1": ">=", "S2": ">=", "E1": "<=", "EUC1": "<="},
        {"S2": ">", "E1": "<"},
    ),
    Case(
        "generalize (numeric QI in cross)",
        lambda d: kit.generalize(
            d.table, d.config, hierarchy=d.hierarchy, levels={d.numeric_qi: 1}
        ),
        {
            "U1": "0",
            "U4": "0",
            "U5": "0",
            "U6": "0",
            "S1": ">=",
            "S2": ">=",
            "E1": "<=",
            "EUC1": "<=",
        },
        {"U2": ">", "U3": ">"},
    ),
    Case(
        "remove_record k=2 (B.1.2)",
        lambda d: kit.remove_record(d.table, d.config, k=2),
        {"S1": ">=2", "U6": "deleted", "U5": "0"},
        {"U1": ">", "U2": ">", "U3": ">", "U4": ">"},
    ),
    Case(
        "laplace_ldp on sa (B.1.3)",
        lambda d: kit.laplace_ldp(d.table, d.config, columns=d.config.sa, epsilon=5.0, seed=1),
        SA_ONLY,
        {
            "U1": ">",
            "U2": ">",
            "U4": ">",
            "U5": ">",
            "E2": "<",
            "E3": "<",
            "E4": "<",
            "EUC1": "<",
            "EUC2": "<",
        },
    ),
    Case(
        "randomized_response on QI (B.1.4)",
        lambda d: kit.randomized_response(
            d.table, d.config, columns=d.outside_cross[:1], epsilon=1.0, seed=1
        ),
        {**ZERO_U, "E1": "<=", "EUC1": "<="},
        {"E1": "<"},
    ),
    Case(
        "DA k_anonymize k=2",
        lambda d: kit.k_anonymize(
            d.table,
            d.config,
            hierarchy=d.hierarchy,
            k=2,
            budget=len(d.table) // 3,
            columns=[d.numeric_qi, *d.outside_cross[:2]],
        ),
        {"S1": ">=2", "U6": "deleted"},
        {"S1": ">", "S2": ">", "E1": "<", "E2": "<", "U2": ">", "U3": ">"},
    ),
    Case(
        "DB sa_noise",
        lambda d: kit.sa_noise(d.table, d.config, scale=2.0, seed=1),
        SA_ONLY,
        {"U1": ">", "U2": ">", "U4": ">", "U5": ">", "E3": "<", "E4": "<"},
    ),
    Case(
        "DC yamaoka",
        lambda d: kit.yamaoka(d.table, d.config),
        {"U1": "0", "U2": "0", "U3": "0", "U4": "0", "U6": "0", **SAME_S, "E1": "="},
        {"U5": ">", "E2": "<", "E3": "<", "E4": "<", "EUC1": "<", "EUC2": "<"},
    ),
    Case(
        "DD qi_unify (outside cross)",
        lambda d: kit.qi_unify(d.table, d.config, columns=d.outside_cross[:1]),
        {**ZERO_U, "S1": ">=", "S2": ">=", "E1": "<=", "EUC1": "<="},
        {"S2": ">", "E1": "<", "E2": "<", "EUC1": "<"},
    ),
    Case(
        "DE qi_unify (cross)",
        lambda d: kit.qi_unify(d.table, d.config, columns=[d.cross_column]),
        {
            "U1": "0",
            "U4": "0",
            "U5": "0",
            "U6": "0",
            "S1": ">=",
            "S2": ">=",
            "E1": "<=",
            "EUC1": "<=",
        },
        {"U2": ">", "U3": ">"},
    ),
    Case(
        "DF sa_class_mean",
        lambda d: kit.sa_class_mean(d.table, d.config),
        {"U1": "0", "U2": "0", "U3": "0", "U6": "0", **SAME_S, "E1": "="},
        {"U4": ">", "U5": ">", "E3": "<", "E4": "<"},
    ),
    Case(
        "DG swap_in_class",
        lambda d: kit.swap_in_class(d.table, d.config, seed=1),
        {"U1": "0", "U2": "0", "U3": "0", "U6": "0", **SAME_S, "E1": "="},
        {"U4": ">", "U5": ">", "E2": "<", "E3": "<", "EUC1": "<"},
    ),
    Case(
        "DH delete_random d=100",
        lambda d: kit.delete_random(d.table, d.config, d=100, seed=1),
        {"U6": "deleted", "U5": "0"},
        {"U1": ">", "U2": ">", "U3": ">", "U4": ">"},
    ),
    Case(
        "top coding (QI)",
        lambda d: kit.top_bottom_coding(
            d.table, d.config, column=d.numeric_qi, top=value_at(d, d.numeric_qi, 0.8)
        ),
        {"S1": ">=", "S2": ">="},
        {"S2": ">"},
    ),
    Case(
        "top/bottom coding (e4 column)",
        lambda d: kit.top_bottom_coding(
            d.table,
            d.config,
            column=d.config.e4_column,
            top=value_at(d, d.config.e4_column, 0.9),
            bottom=value_at(d, d.config.e4_column, 0.1),
        ),
        {**SAME_S},
        {"U1": ">", "U2": ">", "U4": ">", "U5": ">", "E3": "<", "E4": "<"},
    ),
    Case(
        "MDAV k=50 on sa",
        lambda d: kit.mdav(d.table, d.config, k=50),
        {"U1": "0", "U3": "0", "U6": "0", **SAME_S, "E1": "="},
        {"U2": ">", "U4": ">", "U5": ">", "E2": "<", "E3": "<", "E4": "<", "EUC1": "<"},
    ),
]


# Part A's indicators on the indicator column (a column in no role): the directions of B.1.1,
# B.1.2, B.2 and B.3 (DC, DD); an SA-only method or YA leaves every class's values as they were.
LT = {"L1": ">=", "L2": ">=", "T": "<="}
SAME_LT = {"L1": "=", "L2": "=", "T": "="}
INDICATORS = {
    "generalize (QI outside cross)": LT,
    "generalize (numeric QI in cross)": LT,
    "remove_record k=2 (B.1.2)": {"L1": ">=", "L2": ">="},
    "DD qi_unify (outside cross)": LT,
    "DE qi_unify (cross)": LT,
    "top coding (QI)": LT,
    "DC yamaoka": SAME_LT,
    "DB sa_noise": SAME_LT,
    "DF sa_class_mean": SAME_LT,
    "MDAV k=50 on sa": SAME_LT,
}
CASES.append(
    Case(
        "randomized_response on the indicator column (B.1.4)",
        lambda d: kit.randomized_response(
            d.table, d.config, columns=[d.config.indicators.sa], epsilon=1.0, seed=1
        ),
        {**ZERO_U, **SAME_S, "E1": "="},
        # L is a minimum over classes and Adult's round has singleton classes (S1 = 1),
        # whose entropy l is 1 whatever the value: L cannot rise there (reported).
        {"T": "<", "L2": ">="},
    )
)


def holds(relation: str, after, before, deleted: int) -> bool:
    if relation == "0":
        return abs(after) <= TOL
    if relation == "deleted":
        return after == deleted
    if relation.startswith(">=") and relation[2:]:
        return after >= int(relation[2:])
    return {
        "=": lambda: abs(after - before) <= TOL,
        ">=": lambda: after >= before - TOL,
        "<=": lambda: after <= before + TOL,
        ">": lambda: after > before + TOL,
        "<": lambda: after < before - TOL,
    }[relation]()


@cache
def applied(name: str, dataset: str) -> tuple[dict, int]:
    """The case's scores on the dataset and the rows it deleted, computed once: Adult's
    guaranteed directions and expected tendencies read the same evaluation."""
    data = DATA[dataset]()
    out = CASES_BY_NAME[name].apply(data)
    scoring.validate_submission(data.table, out, data.config)
    return scoring.evaluate(data.table, out, data.config), int((out == "").all(axis=1).sum())


def check(case: Case, dataset: str, relations: dict) -> list[str]:
    (after, deleted), before = applied(case.name, dataset), base(dataset)
    return [
        f"{case.name} on {dataset}: {metric} {relation} fails ({before[metric]} -> {after[metric]})"
        for metric, relation in relations.items()
        if not holds(relation, after[metric], before[metric], deleted)
    ]


CASES_BY_NAME = {case.name: case for case in CASES}


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
@pytest.mark.parametrize("dataset", list(DATA))
def test_guaranteed_directions(case, dataset):
    assert check(case, dataset, {**case.guaranteed, **INDICATORS.get(case.name, {})}) == []


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.name)
def test_expected_tendencies_hold_on_adult(case):
    assert check(case, "adult", case.expected) == []
