"""Huge numbers in a numeric column: refused by validation beyond 1e15, and a published
value far outside the reference never breaks the kit's attacker (exact class by class)."""

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring import ValidationError, kit
from scoring.display import format_number

HEADER = "age,sex,income,spend"
ORIGINAL = f"{HEADER}\n39,M,100,5.5\n40,F,200,6\n41,M,300,7\n39,F,400,8\n"
CONFIG = {"qi": ["age", "sex"], "sa": ["income", "spend"], "cross": ["age"],
          "e2_column": "income", "e4_column": "spend"}  # fmt: skip


def _validate(income: str):
    original = scoring.read_table(ORIGINAL.encode(), name="original.csv")
    config = scoring.load_config(CONFIG, original)
    text = ORIGINAL.replace("300,7", f"{income},7")
    scoring.validate_submission(original, scoring.read_table(text.encode(), name="a.csv"), config)


@pytest.mark.parametrize("value", ["1e20", "-1e308", "1000000000000001"])
def test_a_number_beyond_1e15_is_refused_naming_column_row_and_value(value):
    with pytest.raises(ValidationError) as caught:
        _validate(value)
    error = caught.value
    assert error.code == "column.too_large"
    assert "'income'" in str(error) and f"row 3 ('{value}')" in str(error)
    assert "1e15" in str(error)
    assert "絶対値 1e15 以下" in error.render("ja")


def test_1e15_itself_is_a_valid_number():
    _validate("1e15")
    _validate("-1000000000000000")


def test_a_huge_value_shows_in_scientific_notation():
    assert format_number(12345678901234.5) == "1.2346e+13"
    assert format_number(-2e9) == "-2.0000e+09"
    assert format_number(999999.5) == "999999.5000"


def _brute_force(published, reference, n):
    """Top-n reference rows of each published row inside its class, by (distance, row)."""
    spread = reference["x"].astype(float).max() - reference["x"].astype(float).min()
    result = []
    for q, x in zip(published["q"], published["x"].astype(float), strict=True):
        rows = np.flatnonzero(reference["q"] == q)
        d = np.abs(x - reference["x"].astype(float).to_numpy()[rows]) / spread
        result.append(rows[np.lexsort((rows, d))][:n].tolist())
    return result


def test_a_published_value_far_outside_the_reference_keeps_exact_candidates():
    reference = pd.DataFrame(
        {"q": [f"c{k % 10}" for k in range(50)], "x": [str(k) for k in range(50)]}, dtype=object
    )
    published = reference.iloc[[3, 17, 44, 8]].reset_index(drop=True).copy()
    published.loc[1, "x"] = "1e15"  # a valid upload's value, 2e13 ranges away
    published.loc[3, "x"] = "-3e14"
    found = kit.neighbor_att(published, reference, columns=["x"], n=3, match=["q"])
    assert found.index.tolist() == _brute_force(published, reference, 3)
    assert np.isfinite(found.distance).all()


def test_a_range_rule_column_is_bounded_too():
    """A range as wide as ±1e300 (the range replaces the column's domain) bounds nothing."""
    original = scoring.read_table(ORIGINAL.encode(), name="original.csv")
    config = scoring.load_config(CONFIG, original)
    text = ORIGINAL.replace("300,7", "1e20,7")
    anonymized = scoring.read_table(text.encode(), name="a.csv")
    with pytest.raises(ValidationError) as caught:
        scoring.validate_submission(
            original, anonymized, config, value_ranges={"income": (-1e300, 1e300)}
        )
    assert caught.value.code == "column.too_large"
