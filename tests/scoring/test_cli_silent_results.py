"""Input that used to give a silently wrong result is refused (or now right): kit parameters
out of range, --range on no column, attack on a broken published table, score-attack's
reference size, randomized response at a huge epsilon, whole numbers beyond 2**53."""

import json

import numpy as np
import pytest

import scoring
from scoring import kit
from scoring.kit._common import format_numbers
from scoring.kit._examples import bank, bank_config
from tests.scoring.cli_runner import refused
from tests.scoring.test_cli import run
from tests.scoring.test_kit_cli import bank_files


@pytest.fixture
def files(tmp_path):
    return bank_files(tmp_path)


@pytest.mark.parametrize(
    ("method", "param", "shown"),
    [
        ("delete_outliers", "d=-1", "'d' must be a number ≥ 0; got -1"),
        ("delete_random", "d=-1", "'d' must be a number ≥ 0; got -1"),
        ("remove_record", "k=-5", "'k' must be a number ≥ 1; got -5"),
        ("k_anonymize", "k=0", "'k' must be a number ≥ 1; got 0"),
        ("sa_noise", "scale=-1", "'scale' must be a number ≥ 0; got -1.0"),
        ("sa_noise", "scale=inf", "'scale' must be a number ≥ 0; got inf"),
        ("randomized_response", "epsilon=-1", "'epsilon' must be a number > 0; got -1.0"),
        ("randomized_response", "epsilon=-inf", "'epsilon' must be a number > 0; got -inf"),
    ],
)
def test_a_parameter_out_of_range_is_refused_naming_method_and_parameter(
    files, method, param, shown
):
    extra = ["--param", "columns=sex"] if method == "randomized_response" else []
    done = run(
        "anonymize", files / "bank.csv", "--config", files / "round.json",
        "--attr-depth", files / "attr_depth.json", "--method", method, "--param", param,
        *extra, "-o", files / "out.csv",
    )  # fmt: skip
    refused(done, f"{method}: parameter {shown}.")
    assert not (files / "out.csv").exists()


def test_lecture_n_0_names_the_attack_not_an_internal_function(files):
    done = run(
        "attack", files / "bank.csv", files / "bank.csv", "--config", files / "round.json",
        "--method", "lecture", "--param", "n=0", "-o", files / "answer.csv",
    )  # fmt: skip
    refused(done, "lecture: parameter 'n' must be a number ≥ 1; got 0.")
    ja = run(
        "--lang", "ja", "attack", files / "bank.csv", files / "bank.csv", "--config",
        files / "round.json", "--method", "lecture", "--param", "n=0", "-o", files / "a.csv",
    )  # fmt: skip
    refused(ja, "パラメータ 'n' は ≥ 1 の数値にしてください")


@pytest.mark.parametrize("epsilon", [710.0, 1000.0, float("inf")])
def test_randomized_response_at_a_huge_epsilon_keeps_every_value(epsilon):
    out = kit.randomized_response(bank(), bank_config(), columns=["pref"], epsilon=epsilon, seed=1)
    assert out["pref"].tolist() == bank()["pref"].tolist()


def test_whole_numbers_beyond_2_53_are_not_cast_to_a_wrapped_int64():
    cells = format_numbers(np.array([1e19, -1e19, 2.0**53, 2.0**53 - 1]))
    assert [float(c) for c in cells] == [1e19, -1e19, 2.0**53, 2.0**53 - 1]
    assert cells[3] == "9007199254740991"


def test_check_refuses_a_range_on_no_column_or_twice(files):
    bank_csv, config = files / "bank.csv", files / "round.json"
    done = run("check", bank_csv, bank_csv, "--config", config, "--range", "nosuch=1:2")
    refused(done, "'nosuch'", "not a column of the original table")
    twice = ["--range", "age=1:90", "--range", "age=20:30"]
    refused(run("check", bank_csv, bank_csv, "--config", config, *twice), "twice", "'age'")


@pytest.mark.parametrize(
    ("row", "column", "value", "shown"),
    [
        (2, "deposit", "", "row 2 ('deposit')"),
        (3, "income", "abc", "row 3 ('abc')"),
        (4, "income", "1e308", "row 4 ('1e308')"),
    ],
)
def test_attack_refuses_a_broken_published_table(files, row, column, value, shown):
    published = bank()
    published.loc[row - 1, column] = value
    scoring.write_csv(published, files / "p.csv")
    done = run(
        "attack", files / "p.csv", files / "bank.csv", "--config", files / "round.json",
        "-o", files / "answer.csv",
    )  # fmt: skip
    refused(done, "published table", shown)


def test_score_attack_accepts_a_guess_of_a_deleted_last_row(files):
    """The truth's largest row is not the reference's size: with the last rows deleted, a
    guess of the reference's last row is legitimate (spec: 1..|R|)."""
    anonymized = bank()
    anonymized.iloc[8:] = ""
    scoring.write_csv(anonymized, files / "a.csv")
    published, truth = files / "p.csv", files / "t.csv"
    run("publish", files / "a.csv", "--seed", "3", "--out-published", published,
        "--out-truth", truth)  # fmt: skip
    (files / "answer.csv").write_text("10\n" + "0\n" * 7)
    done = run("score-attack", files / "answer.csv", "--truth", truth, "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["rows"] == 8
    bounded = ["--reference-rows", "9"]
    refused(run("score-attack", files / "answer.csv", "--truth", truth, *bounded), "1 and 9")


def test_a_19_digit_guess_is_out_of_range_not_a_non_integer(files):
    scoring.write_csv(bank(), files / "a.csv")
    truth = files / "t.csv"
    run("publish", files / "a.csv", "--seed", "3", "--out-published", files / "p.csv",
        "--out-truth", truth)  # fmt: skip
    (files / "answer.csv").write_text("1234567890123456789\n" + "0\n" * 9)
    done = run("score-attack", files / "answer.csv", "--truth", truth, "--reference-rows", "10")
    refused(done, "out of range at line 1 ('1234567890123456789')")
