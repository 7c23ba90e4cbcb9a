"""Numbers on the command line are read by the tables' number rule (``scoring.numbers``):
ASCII digits, full-width folded. ``float()`` and ``int()`` also read ``1_000``, ``٣`` and
``²``; an option refuses them, naming itself and the value, in both languages."""

import pytest

from scoring.cli import build_parser
from scoring.cli_usage import UsageError
from scoring.dp.errors import DPError
from scoring.dp.exact import parse_epsilon
from scoring.dp.pk import parse_rho
from tests.scoring.cli_runner import in_process as run
from tests.scoring.test_kit_cli import bank_files

# A command line with the value under test as V, the option, and whether it is an integer.
OPTIONS = [
    ("publish a --seed V --out-published p --out-truth t", "--seed", True),
    ("publish a --seed 1 --rows V --out-published p --out-truth t", "--rows", True),
    ("score-attack a --truth t --reference-rows V", "--reference-rows", True),
    ("evaluate a b --config c --range age=V:90", "--range", False),
    ("check a b --config c --range age=1:V", "--range", False),
    ("anonymize a --config c -o o --seed V", "--seed", True),
    ("attack a b --config c -o o --seed V", "--seed", True),
    ("seq baseline t --config c --release V -o o", "--release", True),
    ("dp epsilon --sizes 2 --rho 0.5 --rows V", "--rows", True),
    ("dp release t --config c --level 1 --seed V -o o", "--seed", True),
    ("synth baseline t --population p --rows V -o o", "--rows", True),
    ("synth practice a --population p --challenge V --out d", "--challenge", True),
    ("synth score-attack a --truth t --fpr 0.1 V", "--fpr", False),
    ("scorer run --program p --output o --timeout V", "--timeout", False),
    ("scorer run --program p --output o --memory-mb V", "--memory-mb", True),
]
REFUSED = ["1_000", "٣", "²", "𝟗"]


@pytest.mark.parametrize(("line", "option", "integer"), OPTIONS, ids=lambda v: str(v)[:24])
@pytest.mark.parametrize("value", REFUSED)
def test_a_numeric_option_refuses_what_the_rule_refuses(line, option, integer, value):
    words = line.replace("V", value).split()
    english, japanese = run(*words), run("--lang", "ja", *words)
    assert english.returncode == japanese.returncode == 2
    what = "not an integer" if integer else "not a number"
    assert f"error: argument {option}: {what}: {value!r} (write it in ASCII digits" in (
        english.stderr
    )
    word = "整数" if integer else "数"
    assert f"エラー: 引数 {option}: {word}として読めません: {value!r}（半角の数字で" in (
        japanese.stderr
    )


def test_full_width_digits_are_read_as_in_a_table():
    with pytest.raises(UsageError, match="--seed: not an integer: '٣'"):
        build_parser().parse_args(["publish", "a", "--seed", "٣", "--out-published", "p"])
    args = build_parser().parse_args(
        [
            "publish",
            "a",
            "--seed",
            "７",
            "--rows",
            "１２",
            "--out-published",
            "p",
            "--out-truth",
            "t",
        ]
    )
    assert (args.seed, args.rows) == (7, 12)
    args = build_parser().parse_args(
        ["evaluate", "a", "b", "--config", "c", "--range", "x=１:２.５"]
    )
    assert args.range == [("x", (1.0, 2.5))]


def test_a_malformed_range_is_said_in_japanese_too():
    done = run("--lang", "ja", "evaluate", "a", "b", "--config", "c", "--range", "age")
    assert done.stderr.endswith(
        "python -m scoring evaluate: エラー: 引数 --range: COLUMN=LOW:HIGH の形で指定します: 'age'\n"
    )


@pytest.mark.parametrize("value", ["1_0", "٣"])
def test_numbers_read_after_the_line_follow_the_rule_too(value):
    assert (
        "got '2," + value + "'"
        in run("dp", "epsilon", "--sizes", f"2,{value}", "--rho", "0.5").stderr
    )
    for reader in (parse_rho, parse_epsilon):
        with pytest.raises(DPError, match=repr(f"0{value}")):
            reader(f"0{value}")


@pytest.mark.parametrize(
    ("method", "kind", "value"),
    [("mdav", "int", "1_0"), ("mdav", "int", "٣"), ("sa_noise", "float", "nan")],
)
def test_a_kit_parameter_follows_the_rule(tmp_path, method, kind, value):
    files = bank_files(tmp_path)
    line = f"anonymize {files}/bank.csv --config {files}/round.json -o {files}/o.csv".split()
    name = {"mdav": "k", "sa_noise": "scale"}[method]
    done = run(*line, "--method", method, "--param", f"{name}={value}")
    assert done.returncode == 2
    assert done.stderr == f"error: {method}: parameter {name!r}: cannot read {value!r} as {kind}\n"
    assert not (files / "o.csv").exists()


def test_an_epsilon_in_full_width_digits_is_read():
    with pytest.raises(DPError):
        parse_epsilon("٠.٣")
    assert parse_epsilon("０.３") == parse_epsilon("0.3")
    assert parse_rho("０.５") == 0.5
