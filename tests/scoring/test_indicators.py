"""Indicators L1, L2, L3, T: worked examples I0–I3 and P1–P5, pycanon's pitfalls, the
configuration messages, a literal reference, and the indicators inside ``evaluate``
(spec indicators-and-kit.md Part A)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring.indicator_classes import class_indicators
from scoring.indicators import bin_edges, indicators, satisfies

EXACT = 1e-9


def _classes(*groups: list) -> pd.DataFrame:
    """One row per label; the QI column ``q`` is the group's number."""
    rows = [(k, label) for k, group in enumerate(groups) for label in group]
    return pd.DataFrame(rows, columns=["q", "s"])


# --- worked examples (A.5) ---------------------------------------------------------------


def test_i0_q_two_anonymous_table():
    table = pd.DataFrame(
        {
            "年齢": ["30代", "30代", "40代", "40代", "50代", "50代", "60代", "60代"],
            "都道府県": ["東京", "東京", "大阪", "大阪", "福岡", "福岡", "札幌", "札幌"],
            "職業": ["会社員"] * 8,
            "病名": [
                "大腸ガン",
                "大腸ガン",
                "喘息",
                "アメーバ赤痢",
                "糖尿病",
                "糖尿病",
                "肺ガン",
                "うつ病",
            ],
        }
    )
    result = indicators(table, ["年齢", "都道府県", "職業"], "病名")
    assert result.L1 == 1
    assert result.L2 == pytest.approx(1, abs=EXACT)
    assert result.L3 is None  # l = 2: two classes hold one value only
    assert result.T == pytest.approx(3 / 4, abs=EXACT)
    assert result.classes["distance"].tolist() == pytest.approx([3 / 4] * 4, abs=EXACT)
    # only the {喘息, アメーバ赤痢} and {肺ガン, うつ病} classes are 2-diverse
    assert result.classes["m"].tolist() == [1, 2, 1, 2]


def _i1_table() -> pd.DataFrame:
    return pd.DataFrame(
        [
            ["30", "M", "関東", "1000", "うつ病"],
            ["30", "M", "関東", "1000", "うつ病"],
            ["50", "-", "近畿", "250", "風邪"],
            ["50", "-", "近畿", "250", "エイズ"],
        ],
        columns=["年齢", "性別", "地域", "年収", "既往歴"],
    )


def test_i1_lecture_slide_through_evaluate():
    """The indicator column has no role; the classes are those of S1 (S1 = 2)."""
    x = _i1_table()
    raw = {
        "qi": ["年齢", "性別", "地域"],
        "sa": ["年収"],
        "cross": [],
        "e2_column": "年収",
        "e4_column": "年収",
        "indicators": {"sa": "既往歴"},
    }
    config = scoring.load_config(raw, x)
    result = scoring.evaluate(x, x, config)
    assert result["S1"] == 2
    assert result["L1"] == 1
    assert result["L2"] == pytest.approx(1, abs=EXACT)
    assert result["L3"] is None
    assert result["T"] == pytest.approx(1 / 2, abs=EXACT)
    per_class = indicators(x, config.qi, "既往歴").classes
    assert per_class["exp_h"].tolist() == pytest.approx([1, 2], abs=EXACT)
    assert per_class["distance"].tolist() == pytest.approx([1 / 2, 1 / 2], abs=EXACT)


# Li et al. Table 3 rows: zip, age, salary (K), disease.
LI = {
    1: ("47677", 29, 3, "gastric ulcer"),
    2: ("47602", 22, 4, "gastritis"),
    3: ("47678", 27, 5, "stomach cancer"),
    4: ("47905", 43, 6, "gastritis"),
    5: ("47909", 52, 11, "flu"),
    6: ("47906", 47, 8, "bronchitis"),
    7: ("47605", 30, 7, "bronchitis"),
    8: ("47673", 36, 9, "pneumonia"),
    9: ("47607", 32, 10, "stomach cancer"),
}


def _li(classes: list[list[int]]) -> pd.DataFrame:
    rows = [(k, *LI[r][2:]) for k, members in enumerate(classes) for r in members]
    return pd.DataFrame(rows, columns=["q", "salary", "disease"])


def test_i2a_li_table_4():
    table = _li([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    disease = indicators(table, ["q"], "disease")
    assert (disease.L1, disease.L2, disease.L3) == (3, pytest.approx(3, abs=EXACT), 0.5)
    assert disease.classes["distance"].tolist() == pytest.approx([4 / 9] * 3, abs=EXACT)
    salary = indicators(table, ["q"], "salary")
    assert salary.classes["distance"].tolist() == pytest.approx([3 / 8, 1 / 6, 17 / 72], abs=EXACT)
    assert salary.T == pytest.approx(0.375, abs=EXACT)
    binned = indicators(table, ["q"], "salary", bins=3)
    assert bin_edges(table["salary"].to_numpy(float), 3).tolist() == [5, 8]
    assert (binned.L1, binned.L2) == (1, pytest.approx(1, abs=EXACT))  # "low salary" is certain


def test_i2b_li_table_5():
    table = _li([[1, 3, 8], [4, 5, 6], [2, 7, 9]])
    salary = indicators(table, ["q"], "salary")
    assert salary.classes["distance"].tolist() == pytest.approx([1 / 6, 1 / 6, 1 / 12], abs=EXACT)
    assert salary.T == pytest.approx(1 / 6, abs=EXACT)
    disease = indicators(table, ["q"], "disease")
    assert disease.classes["distance"].tolist() == pytest.approx([5 / 9, 4 / 9, 1 / 3], abs=EXACT)
    binned = indicators(table, ["q"], "salary", bins=3)
    assert binned.L1 == 2
    assert binned.L2 == pytest.approx(1.889882, abs=1e-6)
    assert binned.L2 == pytest.approx(math.exp(math.log(3) - 2 * math.log(2) / 3), abs=EXACT)


def _i3() -> pd.DataFrame:
    return _classes(
        ["flu", "flu", "flu", "cold"], ["flu", "cold", "hiv"], ["flu", "flu", "hiv", "hiv", "cold"]
    )


def test_i3_distinct_entropy_recursive():
    result = indicators(_i3(), ["q"], "s")
    assert result.L1 == 2
    h_a = -(3 / 4 * math.log(3 / 4) + 1 / 4 * math.log(1 / 4))
    assert result.L2 == pytest.approx(math.exp(h_a), abs=EXACT)
    assert result.L2 == pytest.approx(1.754765, abs=1e-6)
    assert result.classes["exp_h"].tolist() == pytest.approx([math.exp(h_a), 3, 2.871746], abs=1e-6)
    assert result.classes["c"].tolist() == pytest.approx([3, 1 / 2, 2 / 3], abs=EXACT)
    assert result.L3 == pytest.approx(3, abs=EXACT)
    assert math.floor(result.L3) + 1 == 4  # the smallest integer c
    assert indicators(_i3(), ["q"], "s", l=3).L3 is None  # A has two values
    assert result.classes["distance"].tolist() == pytest.approx([1 / 4, 1 / 6, 3 / 20], abs=EXACT)
    assert result.T == pytest.approx(1 / 4, abs=EXACT)
    assert satisfies(result, l=2) is False  # distinct 2-diverse, not entropy 2-diverse
    assert satisfies(result, t=0.25) is True
    assert satisfies(result, t=0.2499) is False


# --- pycanon's pitfalls (A.7) ------------------------------------------------------------


def test_p1_entropy_is_not_floored():
    result = indicators(_classes(["a", "b"], ["a", "b"]), ["q"], "s")
    assert result.L2 == pytest.approx(2, abs=EXACT)
    assert satisfies(result, l=2)
    li = indicators(_li([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ["q"], "disease")
    assert li.L2 == pytest.approx(3, abs=EXACT)  # pycanon: 2


def test_recursive_uses_the_most_frequent_count():
    """pycanon sorts ascending and divides the least frequent count: (c, l) = (1, 2) on I3."""
    result = indicators(_i3(), ["q"], "s")
    assert result.classes["c"][0] == pytest.approx(3 / 1, abs=EXACT)  # r_1 = 3 flu, r_2 = 1 cold
    assert result.L3 == pytest.approx(3, abs=EXACT)
    li = indicators(_li([[1, 2, 3], [4, 5, 6], [7, 8, 9]]), ["q"], "disease", l=3)
    assert li.L3 == pytest.approx(1, abs=EXACT)  # C_3 = 1, smallest integer c = 2


def test_p2_nan_key_is_a_class_of_its_own():
    table = pd.DataFrame({"q": [1, 1, 2, 2, np.nan], "s": ["a", "b", "a", "b", "c"]})
    result = indicators(table, ["q"], "s")
    assert result.classes["size"].min() == 1  # k = 1, not 2
    assert result.L1 == 1


def test_p3_declared_kind_chooses_the_distance_not_the_dtype():
    table = _classes([1, 3], [2, 3])
    assert indicators(table, ["q"], "s", kind="categorical").T == pytest.approx(1 / 4, abs=EXACT)
    # the ordered distance, what pycanon applies to integer dtypes, gives 1/8
    assert indicators(table, ["q"], "s").T == pytest.approx(1 / 8, abs=EXACT)


def test_p4_equal_frequency_edges_in_integer_arithmetic():
    values = np.arange(1.0, 101.0)
    assert (11 / 20) * 100 == 55.00000000000001  # the float route would pick x_(56)
    edges = bin_edges(values, 20)
    assert edges[10] == 55.0
    assert edges.tolist() == [5.0 * i for i in range(1, 20)]
    assert bin_edges(np.array([1.0, 1, 1, 1, 2]), 4).tolist() == [1.0]  # deduplicated


def test_p5_non_default_index():
    table = _i3()
    table.index = np.arange(100, 100 + len(table))[::-1]
    shuffled = table.sample(frac=1, random_state=3)
    result = indicators(shuffled, ["q"], "s")
    assert result.L3 == pytest.approx(3, abs=EXACT)
    assert result.T == pytest.approx(1 / 4, abs=EXACT)


def test_suppression_marker_is_an_ordinary_label():
    assert indicators(_classes(["a", "-"], ["a", "a"]), ["q"], "s").classes["m"].tolist() == [2, 1]


def test_values_outside_the_original_range_fall_into_the_end_bins():
    reference = pd.DataFrame({"q": [0] * 4, "s": [1, 2, 3, 4]})
    table = pd.DataFrame({"q": [0, 0, 1, 1], "s": [-50, 0, 99, 1000]})
    result = indicators(table, ["q"], "s", bins=2, reference=reference)
    assert result.classes["m"].tolist() == [1, 1]  # edge 2: both low, both high


# --- a literal reference on tie-heavy random tables --------------------------------------


def _literal(classes, labels, ranks, level, distance):
    """The definitions of A.3 read literally, one class at a time."""
    n = len(labels)
    support = np.unique(ranks)
    overall = np.array([np.sum(ranks == v) for v in support]) / n
    out = {"m": [], "exp_h": [], "c": [], "distance": []}
    for c in np.unique(classes):
        members = labels[classes == c]
        counts = np.sort(np.unique(members, return_counts=True)[1])[::-1]
        p = counts / counts.sum()
        out["m"].append(counts.size)
        out["exp_h"].append(math.exp(-np.sum(p * np.log(p))))
        tail = counts[level - 1 :].sum()
        out["c"].append(counts[0] / tail if tail else math.inf)
        within = np.array([np.sum(ranks[classes == c] == v) for v in support]) / members.size
        gap = within - overall
        if distance == "equal":
            out["distance"].append(0.5 * np.abs(gap).sum())
        else:
            m = support.size
            out["distance"].append(np.abs(np.cumsum(gap)).sum() / (m - 1) if m > 1 else 0.0)
    return out


@pytest.mark.parametrize("distance", ["equal", "ordered"])
@pytest.mark.parametrize("seed", range(6))
def test_fast_code_equals_the_literal_definitions(seed, distance):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 300))
    classes = rng.integers(0, int(rng.integers(1, 40)), size=n) * 7  # sparse ids
    labels = rng.integers(0, int(rng.integers(1, 12)), size=n)
    level = int(rng.integers(2, 5))
    fast = class_indicators(classes, labels, labels, l=level, t_distance=distance)
    literal = _literal(classes, labels, labels, level, distance)
    for column in ("m", "exp_h", "c", "distance"):
        assert fast.classes[column].tolist() == pytest.approx(literal[column], abs=EXACT), column
    assert 1 - EXACT <= fast.L2 <= fast.L1 + EXACT
    assert 0 <= fast.T <= 1


# --- configuration (A.4) -----------------------------------------------------------------


def _x() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "q": ["1", "2", "3", "4", "5", "6"],
            "n": ["3", "1", "4", "1", "5", "9"],
            "d": ["flu", "cold", "flu", "abc", "hiv", "flu"],
            "grade": ["low", "mid", "high", "low", "mid", "high"],
        }
    )


def _config(indicator: dict) -> scoring.RoundConfig:
    raw = {"qi": ["q"], "sa": ["n"], "cross": [], "e2_column": "n", "e4_column": "n"}
    return scoring.load_config({**raw, "indicators": indicator}, _x())


@pytest.mark.parametrize(
    "indicator, message",
    [
        (
            {"sa": "zip"},
            "indicators.sa 'zip' is not a column of the table (columns: q, n, d, grade)",
        ),
        ({"sa": "q"}, "indicators.sa 'q' is a qi column"),
        ({"sa": "d", "kind": "text"}, "indicators.kind must be 'categorical' or 'numeric'"),
        (
            {"sa": "d", "kind": "numeric"},
            "indicators.kind is 'numeric' but column 'd' holds non-numbers: row 1 ('flu'), "
            "row 2 ('cold'), "
            "row 3 ('flu'), row 4 ('abc'), row 5 ('hiv'), row 6 ('flu') (6 rows in total)",
        ),
        ({"sa": "n", "bins": 1}, "indicators.bins must be an integer >= 2 or a strictly"),
        ({"sa": "n", "bins": [1, 1]}, "indicators.bins must be an integer >= 2 or a strictly"),
        ({"sa": "n", "bins": "5"}, "indicators.bins must be an integer >= 2 or a strictly"),
        ({"sa": "n", "l": 1}, "indicators.l must be an integer >= 2"),
        ({"sa": "n", "l": 2.5}, "indicators.l must be an integer >= 2"),
        ({"sa": "n", "t_distance": "hier"}, "indicators.t_distance must be 'equal' or 'ordered'"),
        (
            {"sa": "grade", "t_distance": "ordered", "order": ["low", "mid"]},
            "indicators.order must list every value of column 'grade'; missing: 'high' (1 in total)",
        ),
        ({"sa": "n", "colour": 1}, "Unknown key(s) in indicators: 'colour'"),
    ],
)
def test_configuration_errors_name_the_key_and_value(indicator, message):
    with pytest.raises(scoring.ConfigError) as caught:
        _config(indicator)
    assert message in str(caught.value)


def test_configuration_defaults_and_round_trip():
    numeric = _config({"sa": "n"}).indicators
    assert (numeric.kind, numeric.t_distance, numeric.bins, numeric.l) == (
        "numeric",
        "ordered",
        5,
        2,
    )
    categorical = _config({"sa": "d"}).indicators
    assert (categorical.kind, categorical.t_distance) == ("categorical", "equal")
    config = _config({"sa": "grade", "t_distance": "ordered", "order": ["low", "mid", "high"]})
    again = scoring.load_config(config.to_dict(), _x())
    assert again == config
    assert again.to_dict()["indicators"]["order"] == ["low", "mid", "high"]
    assert (
        "indicators"
        not in scoring.load_config(
            {k: v for k, v in config.to_dict().items() if k != "indicators"}, _x()
        ).to_dict()
    )


def test_ordered_categorical_uses_the_order_list():
    x = _x()
    config = _config({"sa": "grade", "t_distance": "ordered", "order": ["low", "mid", "high"]})
    result = scoring.evaluate(x, x, config)
    by_list = indicators(x, ["q"], "grade", t_distance="ordered", order=["low", "mid", "high"])
    assert result["T"] == pytest.approx(by_list.T, abs=EXACT)
    # one row per class, P = (1/3, 1/3, 1/3) over low < mid < high: the class "low" has
    # cumulative gaps 2/3, 1/3, 0 over m - 1 = 2, "mid" 1/3; the equal distance gives 2/3
    assert result["T"] == pytest.approx(1 / 2, abs=EXACT)
    assert by_list.classes["distance"].tolist() == pytest.approx([1 / 2, 1 / 3, 1 / 2] * 2)
    assert indicators(x, ["q"], "grade").T == pytest.approx(2 / 3, abs=EXACT)


def test_evaluate_without_indicators_has_no_indicator_keys():
    x = _x()
    raw = {"qi": ["q"], "sa": ["n"], "cross": [], "e2_column": "n", "e4_column": "n"}
    result = scoring.evaluate(x, x, scoring.load_config(raw, x))
    assert not set(scoring.INDICATOR_METRICS) & set(result)


def test_registry_names_and_directions():
    assert scoring.INDICATOR_METRICS == ("L1", "L2", "L3", "T")
    directions = {m: scoring.LOWER_IS_BETTER[m] for m in scoring.INDICATOR_METRICS}
    assert directions == {"L1": False, "L2": False, "L3": True, "T": True}
    assert all(scoring.METRIC_NAMES[m] for m in scoring.ALL_METRICS)


def test_command_line_prints_the_indicators(tmp_path):
    import json
    import subprocess
    import sys

    x = _i1_table()
    x.to_csv(tmp_path / "x.csv", index=False)
    raw = {
        "qi": ["年齢", "性別", "地域"],
        "sa": ["年収"],
        "cross": [],
        "e2_column": "年収",
        "e4_column": "年収",
        "indicators": {"sa": "既往歴"},
    }
    (tmp_path / "round.json").write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")
    args = [tmp_path / "x.csv", tmp_path / "x.csv", "--config", tmp_path / "round.json"]
    args += ["--classes", tmp_path / "classes.csv"]
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "evaluate", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # The table's lines (padded columns), not the legend under it ("L3 ∞: …").
    lines = {line.split()[0]: line for line in done.stdout.splitlines() if "  " in line}
    assert lines["L1"].endswith(" 1")
    assert lines["T"].endswith(" 0.5000")
    assert lines["L3"].endswith(" ∞")  # scoring.display: L3's null is +infinity
    assert "L3 ∞: some equivalence class has fewer than l distinct values" in done.stdout
    classes = pd.read_csv(tmp_path / "classes.csv")
    assert classes["size"].tolist() == [2, 2] and classes["m"].tolist() == [1, 2]


def test_per_class_table_for_the_organizer(tmp_path):
    from scoring.evaluate import indicator_classes

    x = _i1_table()
    raw = {
        "qi": ["年齢", "性別", "地域"],
        "sa": ["年収"],
        "cross": [],
        "e2_column": "年収",
        "e4_column": "年収",
        "indicators": {"sa": "既往歴"},
    }
    config = scoring.load_config(raw, x)
    table = indicator_classes(x, x, config)
    assert table.columns.tolist() == ["年齢", "性別", "地域", "size", "m", "exp_h", "c", "distance"]
    assert table[["年齢", "性別", "地域"]].values.tolist() == [
        ["30", "M", "関東"],
        ["50", "-", "近畿"],
    ]
    assert table["m"].tolist() == [1, 2]
    assert table["exp_h"].tolist() == pytest.approx([1, 2], abs=EXACT)
    assert table["c"].tolist()[0] == math.inf and table["c"].tolist()[1] == pytest.approx(1)
    assert table["distance"].tolist() == pytest.approx([0.5, 0.5], abs=EXACT)
    with pytest.raises(ValueError):
        indicator_classes(
            x, x, scoring.load_config({k: v for k, v in raw.items() if k != "indicators"}, x)
        )
