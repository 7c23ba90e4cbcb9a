"""One display rule per metric (scoring.display), driven by the metric registry."""

import json
import re
import subprocess
import sys

import pandas as pd
import pytest

import scoring
from scoring.display import (
    INFINITE,
    UNDEFINED,
    format_figure,
    format_metric,
    format_number,
    legend,
    undefined_note,
    undefined_symbol,
)
from scoring.metrics_info import METRIC_KINDS

RATES_AND_REALS = [m for m in scoring.ALL_METRICS if METRIC_KINDS[m] != "count"]


def test_every_metric_has_a_display_kind():
    assert set(METRIC_KINDS) == set(scoring.ALL_METRICS)
    assert set(METRIC_KINDS.values()) <= {"count", "rate", "real"}
    # The integer-valued metrics of metrics.md and indicators Part A.
    assert [m for m in scoring.ALL_METRICS if METRIC_KINDS[m] == "count"] == ["U6", "S1", "L1"]
    assert all(METRIC_KINDS[m] == "rate" for m in scoring.ATTACK_METRICS)


@pytest.mark.parametrize("metric", ["U6", "S1", "L1"])
@pytest.mark.parametrize("value", [20, 20.0])
def test_counts_have_no_decimals(metric, value):
    # The API's JSON carries floats (20.0); a count still reads 20.
    assert format_metric(metric, value) == "20"


@pytest.mark.parametrize("metric", RATES_AND_REALS)
@pytest.mark.parametrize("value", [4.4e-05, 1 / 32561, 5e-05, 1e-7, 5e-324, -4.4e-05])
def test_a_small_nonzero_value_never_reads_as_zero(metric, value):
    text = format_metric(metric, value)
    assert float(text) != 0, text
    # It still parses as the number it is (the pages sort columns with parseFloat).
    assert float(text) == pytest.approx(value, rel=0.15), text


@pytest.mark.parametrize("metric", RATES_AND_REALS)
def test_rates_and_reals_keep_four_decimals(metric):
    assert format_metric(metric, 0.123456) == "0.1235"
    assert format_metric(metric, 0) == "0.0000"
    assert format_metric(metric, 1) == "1.0000"
    assert format_metric(metric, 1234.5) == "1234.5000"


def test_small_values_read_as_a_student_expects():
    assert format_number(4.4e-05) == "0.000044"
    assert format_number(1 / 32561) == "0.000031"  # one row of the Adult table
    assert format_number(3.1e-07) == "3.1e-07"
    assert format_number(float("inf")) == INFINITE


def test_a_missing_value_has_one_sign_per_metric_with_its_meaning():
    assert format_metric("L3", None) == undefined_symbol("L3") == INFINITE == "∞"
    for metric in scoring.ALL_METRICS:
        if metric != "L3":
            assert format_metric(metric, None) == UNDEFINED == "–"
        for lang in ("en", "ja"):
            note = undefined_note(metric, lang)
            assert note.startswith(undefined_symbol(metric) + ":"), (metric, lang, note)
    assert "fewer than l" in undefined_note("L3", "en")
    assert "l 種類未満" in undefined_note("L3", "ja")
    assert legend(["U1", "L3"], {"U1": 0.5, "L3": None}) == [f"L3 {undefined_note('L3')}"]


def test_an_unknown_metric_is_refused():
    with pytest.raises(KeyError):
        format_metric("U7", 1.0)


def test_evaluate_prints_counts_small_rates_and_an_infinite_l3_by_the_rule(tmp_path):
    # I1 of indicators-and-kit.md: one class has a single indicator value (L3 = ∞).
    table = pd.DataFrame(
        {
            "age": [30, 30, 40, 40],
            "income": [100, 200, 300, 400],
            "disease": ["a", "a", "a", "b"],
        }
    )
    table.to_csv(tmp_path / "x.csv", index=False)
    deleted = table.astype(object)
    deleted.iloc[3] = ""
    deleted.to_csv(tmp_path / "a.csv", index=False)
    raw = {
        "qi": ["age"],
        "sa": ["income"],
        "cross": [],
        "e2_column": "income",
        "e4_column": "income",
        "indicators": {"sa": "disease"},
    }
    (tmp_path / "round.json").write_text(json.dumps(raw))
    args = [sys.executable, "-m", "scoring", "--lang", "en", "evaluate", "x.csv", "a.csv"]
    args += ["--config", "round.json"]
    done = subprocess.run(args, capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    values = dict(re.findall(r"^(\w+) {2,}.* (\S+)$", done.stdout, re.M))  # metric  name  value
    assert values["U6"] == "1" and values["S1"] == "1" and values["L1"] == "1"
    assert values["L3"] == "∞"
    assert f"L3 {undefined_note('L3', 'en')}" in done.stdout.splitlines()
    as_json = subprocess.run(
        [*args, "--format", "json"], capture_output=True, text=True, cwd=tmp_path, timeout=120
    )
    scores = json.loads(as_json.stdout)
    assert scores["L3"] is None and scores["U6"] == 1  # the JSON keeps null and numbers


def test_the_rule_of_each_kind_of_figure():
    assert [format_figure(v) for v in (1, 0.5, 5, 28.0, 1.1)] == [
        "1.0000",
        "0.5000",
        "5.0000",
        "28.0000",
        "1.1000",
    ]
    assert format_figure(4.4e-05) == "0.000044" and format_figure(1234567.5) == "1234567.5000"
    assert [format_figure(v, "count") for v in (20, 20.0, 2.5)] == ["20", "20", "2.5000"]
    assert format_figure(None) == format_figure(None, "count") == "–"
    with pytest.raises(ValueError, match="kind of figure"):
        format_figure(1, "percent")
