"""Every worked example of metrics.md (seed 004, Tables 2a/2b/3/8/9), exact to 4 decimals."""

import pandas as pd
import pytest

import scoring

COLUMNS = ["QI1", "QI2", "QI3", "SA1", "SA2"]
X = [(2, 1, 1, 100, 100), (2, 1, 1, 200, 400), (1, 1, 2, 300, 200), (1, 1, 2, 400, 500)]
DELETED = ("", "", "", "", "")
SUBMISSIONS = {
    "X itself": X,
    "B (2b, noise)": [
        (2, 1, 1, 110, 90),
        (2, 1, 1, 220, 390),
        (1, 1, 2, 280, 210),
        (1, 1, 2, 390, 520),
    ],
    "D (3, QI3 := 1)": [
        (2, 1, 1, 100, 100),
        (2, 1, 1, 200, 400),
        (1, 1, 1, 300, 200),
        (1, 1, 1, 400, 500),
    ],
    "F (8, micro-aggregation)": [
        (2, 1, 1, 150, 250),
        (2, 1, 1, 150, 250),
        (1, 1, 2, 350, 350),
        (1, 1, 2, 350, 350),
    ],
    "G (9, swap within QI)": [
        (2, 1, 1, 200, 100),
        (2, 1, 1, 100, 400),
        (1, 1, 2, 300, 500),
        (1, 1, 2, 400, 200),
    ],
    "X with row 2 deleted": [X[0], DELETED, X[2], X[3]],
    "X with rows reordered 2,1,4,3": [X[1], X[0], X[3], X[2]],
}
# metrics.md, "Worked examples": U1 U2 U3 U4 U5 U6 S1 S2 E1 E2 E3 E4 EUC1 EUC2
EXPECTED = {
    "X itself": (0, 0, 0, 0, 0, 0, 2, 2, 0.5, 1, 1, 1, 1, 1),
    "B (2b, noise)": (1.25, 13.75, 0, 0.1139, 0.0406, 0, 2, 2, 0.5, 1, 1, 1, 1, 1),
    "D (3, QI3 := 1)": (0, 0, 0, 0, 0, 0, 2, 2, 0.25, 1, 1, 1, 0.5, 1),
    "F (8, micro-aggregation)": (0, 0, 0, 0.2929, 0.2708, 0, 2, 2, 0.5, 0.5, 0.25, 0.5, 0.5, 0.5),
    "G (9, swap within QI)": (0, 0, 0, 0.8485, 0.2708, 0, 2, 2, 0.5, 0.5, 0.25, 0.5, 0.5, 0.5),
    "X with row 2 deleted": (25, 50, 0.5, 0.1839, 0, 1, 1, 1.5, 0.5, 1, 0.6667, 1, 1, 1),
    "X with rows reordered 2,1,4,3": (0, 0, 0, 0, 0.5417, 0, 2, 2, 0.5, 0, 0, 0, 0, 0),
}
CONFIG = {
    "qi": ["QI1", "QI2", "QI3"],
    "sa": ["SA1", "SA2"],
    "cross": ["QI1", "QI2"],
    "e2_column": "SA1",
    "e4_column": "SA1",
}


def table(rows) -> pd.DataFrame:
    return pd.DataFrame([[str(v) for v in row] for row in rows], columns=COLUMNS, dtype=object)


@pytest.fixture(scope="module")
def results():
    original = table(X)
    config = scoring.load_config(CONFIG, original)
    return {
        name: scoring.evaluate(original, table(rows), config) for name, rows in SUBMISSIONS.items()
    }


CASES = [(name, metric) for name in SUBMISSIONS for metric in scoring.METRICS]


@pytest.mark.parametrize(("name", "metric"), CASES, ids=[f"{n}-{m}" for n, m in CASES])
def test_worked_example_value(results, name, metric):
    expected = EXPECTED[name][scoring.METRICS.index(metric)]
    assert round(results[name][metric], 4) == pytest.approx(expected, abs=1e-9)


def test_integral_metrics_are_ints(results):
    for values in results.values():
        assert isinstance(values["U6"], int) and isinstance(values["S1"], int)


def test_values_survive_a_csv_round_trip(tmp_path):
    original = table(X)
    submission = table(SUBMISSIONS["G (9, swap within QI)"])
    scoring.write_csv(original, tmp_path / "x.csv")
    scoring.write_csv(submission, tmp_path / "g.csv")
    x2 = scoring.read_table(tmp_path / "x.csv")
    g2 = scoring.read_table(tmp_path / "g.csv")
    config = scoring.load_config(CONFIG, x2)
    values = scoring.evaluate(x2, g2, config)
    assert [round(values[m], 4) for m in scoring.METRICS] == list(EXPECTED["G (9, swap within QI)"])


def test_float_written_integer_qi_is_the_same_value():
    # pandas writes 2.0 as soon as a column holds a blank: must still match QI 2.
    original = table(X)
    config = scoring.load_config(CONFIG, original)
    rows = [("2.0", "+1", " 1 ", 100, 100)] + X[1:]
    values = scoring.evaluate(original, table(rows), config)
    assert values["E1"] == 0.5 and values["S1"] == 2 and values["U3"] == 0
