"""The range rule of a column (iPWS 2023, PWSCup 2021: "continuous in range 13 ≤ age ≤ 85")
and the published sample of a target (iPWS 2023: 300 of 3,985 rows), in ``scoring`` alone."""

import json

import numpy as np
import pandas as pd
import pytest

import scoring
from scoring import ValidationError

HEADER = "age,sex,bmi,income"
ORIGINAL = f"{HEADER}\n39,M,22.5,100\n40,F,30,200\n41,M,18,300\n39,F,25,400\n"
CONFIG = {
    "qi": ["age", "sex", "bmi"],
    "sa": ["income"],
    "cross": ["age"],
    "e2_column": "income",
    "e4_column": "income",
}
RANGES = {"age": (13.0, 85.0), "bmi": (13.0, 75.0)}


@pytest.fixture
def original():
    return scoring.read_table(ORIGINAL.encode(), name="original.csv")


@pytest.fixture
def config(original):
    return scoring.load_config(CONFIG, original)


def table(*lines: str):
    return scoring.read_table((HEADER + "\n" + "\n".join(lines) + "\n").encode(), name="a.csv")


def test_without_the_rule_a_new_value_is_outside_the_domain(original, config):
    submission = table("45,M,22.5,100", "40,F,30,200", "41,M,18,300", "39,F,25,400")
    with pytest.raises(ValidationError, match=r"'age'.*do not occur"):
        scoring.validate_submission(original, submission, config)


def test_a_number_within_the_range_is_accepted_and_scored(original, config):
    # 45 and 33.3 are values of no original row; 39.5 is not even a whole number.
    submission = table("45,M,33.3,100", "39.5,F,30,200", "41,M,18,300", "39,F,25,400")
    scoring.validate_submission(original, submission, config, value_ranges=RANGES)
    scores = scoring.evaluate(original, submission, config, value_ranges=RANGES)
    assert scores["rows"] == 4 and scores["kept_rows"] == 4
    # The same submission is refused without the rule: evaluate checks what it is given.
    with pytest.raises(ValidationError):
        scoring.evaluate(original, submission, config)


@pytest.mark.parametrize("low, high", [("13", "75"), ("85", "13.0")])
def test_a_value_on_a_bound_is_accepted(original, config, low, high):
    submission = table(f"{high},M,{low},100", f"{low},F,{high},200", "41,M,18,300", "39,F,25,400")
    ranges = {"age": (13.0, 85.0), "bmi": (13.0, 85.0)}
    scoring.validate_submission(original, submission, config, value_ranges=ranges)


@pytest.mark.parametrize(
    "cell, column, row",
    [
        ("86", "age", 2),  # just above the upper bound
        ("12.999", "age", 2),  # just below the lower bound
        ("teen", "age", 2),  # not a number
        ("inf", "age", 2),
        ("75.01", "bmi", 3),
    ],
)
def test_a_value_outside_the_range_names_column_row_and_value(original, config, cell, column, row):
    lines = ["39,M,22.5,100", "40,F,30,200", "41,M,18,300", "39,F,25,400"]
    fields = lines[row - 1].split(",")
    fields[0 if column == "age" else 2] = cell
    lines[row - 1] = ",".join(fields)
    with pytest.raises(ValidationError) as info:
        scoring.validate_submission(original, table(*lines), config, value_ranges=RANGES)
    message = str(info.value)
    assert f"'{column}'" in message and f"row {row} ('{cell}')" in message
    low, high = RANGES[column]
    assert f"from {low:g} to {high:g}" in message
    assert info.value.code == "submission.outside_range"


def test_the_message_is_in_japanese_too(original, config):
    submission = table("39,M,22.5,100", "90,F,30,200", "41,M,18,300", "39,F,25,400")
    with pytest.raises(ValidationError) as info:
        scoring.validate_submission(original, submission, config, value_ranges=RANGES)
    japanese = info.value.render("ja")
    assert "'age'" in japanese and "13 以上 85 以下" in japanese and "('90')" in japanese


def test_a_deleted_row_is_not_checked_and_other_columns_keep_their_rule(original, config):
    deleted = table("39,M,22.5,100", ",,,", "41,M,18,300", "39,F,25,400")
    scoring.validate_submission(original, deleted, config, value_ranges={"age": (39.0, 41.0)})
    # sex has no range: a new label is still refused.
    new_label = table("39,X,22.5,100", "40,F,30,200", "41,M,18,300", "39,F,25,400")
    with pytest.raises(ValidationError, match=r"'sex'.*do not occur"):
        scoring.validate_submission(original, new_label, config, value_ranges=RANGES)


def test_a_range_on_a_number_column_adds_its_bounds(original, config):
    submission = table("39,M,22.5,100", "40,F,30,5000", "41,M,18,300", "39,F,25,400")
    scoring.validate_submission(original, submission, config)  # any number, by default
    with pytest.raises(ValidationError, match=r"'income'.*row 2 \('5000'\)"):
        scoring.validate_submission(
            original, submission, config, value_ranges={"income": (0.0, 1000.0)}
        )


def test_the_sample_is_a_prefix_of_the_shuffle_and_reproducible():
    anonymized = pd.DataFrame(
        {"q": [str(k) if k % 7 else "" for k in range(200)], "s": [str(k) for k in range(200)]}
    )
    anonymized.loc[anonymized["q"] == "", "s"] = ""  # every 7th row deleted
    whole = scoring.publish_target(anonymized, seed=42)
    sample = scoring.publish_target(anonymized, seed=42, rows=30)
    again = scoring.publish_target(anonymized, seed=42, rows=30)
    other = scoring.publish_target(anonymized, seed=43, rows=30)
    assert len(sample.table) == 30 and sample.truth.size == 30
    assert np.array_equal(sample.truth, whole.truth[:30])
    assert np.array_equal(sample.truth, again.truth)
    assert not np.array_equal(sample.truth, other.truth)
    # Each published row is the anonymized row its truth names, and none is deleted.
    assert (sample.table["s"].to_numpy() == anonymized["s"].to_numpy()[sample.truth - 1]).all()
    assert (sample.table["q"] != "").all()
    # More rows than are kept: every kept row.
    assert len(scoring.publish_target(anonymized, seed=42, rows=10_000).table) == len(whole.table)
    with pytest.raises(ValueError):
        scoring.publish_target(anonymized, seed=42, rows=0)


# --- The command line: the same rule and sample as the server ----------------------------


def test_the_command_line_takes_the_range_rule_and_the_sample(tmp_path):
    from tests.scoring.test_cli import run

    (tmp_path / "x.csv").write_text(ORIGINAL)
    (tmp_path / "a.csv").write_text(
        HEADER + "\n45,M,22.5,100\n40,F,30,200\n41,M,18,300\n39,F,25,400\n"
    )
    (tmp_path / "round.json").write_text(json.dumps(CONFIG))
    args = ["check", tmp_path / "x.csv", tmp_path / "a.csv", "--config", tmp_path / "round.json"]
    refused = run(*args)
    assert refused.returncode == 2 and "'age'" in refused.stderr
    assert run(*args, "--range", "age=13:85").returncode == 0
    narrow = run(*args, "--range", "age=13:44", "--range", "bmi=13:75")
    assert narrow.returncode == 2 and "row 1 ('45')" in narrow.stderr
    assert run(*args, "--range", "age=85:13").returncode == 2  # a usage error
    published = run(
        "publish", tmp_path / "a.csv", "--seed", "7", "--rows", "2",
        "--out-published", tmp_path / "p.csv", "--out-truth", tmp_path / "t.csv",
    )  # fmt: skip
    assert published.returncode == 0, published.stderr
    assert len((tmp_path / "p.csv").read_text().splitlines()) == 3  # header + 2 rows
    assert len((tmp_path / "t.csv").read_text().splitlines()) == 3
