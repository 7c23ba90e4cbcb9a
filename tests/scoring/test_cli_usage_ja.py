"""argparse's own refusals (a missing argument, an invalid choice or value, an unknown
option) in the language of ``--lang`` or ``LANG``: the usage line and the ``error:`` line.
In English they are argparse's text, unchanged; a message argparse words otherwise stays as
written. A command's own refusal of a value is said in the language too."""

import pytest

from scoring.cli_usage import translated
from tests.scoring.cli_runner import as_child
from tests.scoring.cli_runner import in_process as run

JA = "ja_JP.UTF-8"

CASES = [
    (
        ("evaluate",),
        "python -m scoring evaluate: error: the following arguments are required: "
        "original, anonymized, --config",
        "python -m scoring evaluate: エラー: 次の引数が必要です: original, anonymized, --config",
    ),
    (
        ("seq",),
        "python -m scoring seq: error: the following arguments are required: {check,baseline}",
        "python -m scoring seq: エラー: 次の引数が必要です: {check,baseline}",
    ),
    (
        ("evaluate", "a", "b", "--config", "c", "--format", "xml"),
        "python -m scoring evaluate: error: argument --format: invalid choice: 'xml' "
        "(choose from 'table', 'json')",
        "python -m scoring evaluate: エラー: 引数 --format: 使えない値です: 'xml'"
        "（選べるのは 'table', 'json'）",
    ),
    (
        ("check", "a", "b", "--config", "c", "--bogus"),
        "python -m scoring: error: unrecognized arguments: --bogus",
        "python -m scoring: エラー: 知らない引数です: --bogus",
    ),
    (
        ("publish", "a", "--seed", "x", "--out-published", "p", "--out-truth", "t"),
        "python -m scoring publish: error: argument --seed: not an integer: 'x' "
        "(write it in ASCII digits, e.g. 1000)",
        "python -m scoring publish: エラー: 引数 --seed: 整数として読めません: 'x'"
        "（半角の数字で書きます。例: 1000）",
    ),
    (
        ("score-attack", "a", "--truth"),
        "python -m scoring score-attack: error: argument --truth: expected one argument",
        "python -m scoring score-attack: エラー: 引数 --truth: 値が 1 つ必要です",
    ),
]


@pytest.mark.parametrize(("argv", "english", "japanese"), CASES, ids=lambda v: str(v)[:40])
def test_argparse_refusals_follow_the_language(argv, english, japanese):
    plain = run(*argv)
    assert plain.returncode == 2 and plain.stdout == ""
    assert plain.stderr.startswith("usage: python -m scoring")
    assert plain.stderr.endswith(english + "\n"), plain.stderr
    for done in (run("--lang", "ja", *argv), run(*argv, lang=JA)):
        assert done.returncode == 2 and done.stdout == ""
        assert done.stderr.startswith("使い方: python -m scoring"), done.stderr
        assert done.stderr.endswith(japanese + "\n"), done.stderr
        # The usage line itself is argparse's (option names are not translated).
        assert done.stderr.split("\n")[1:-2] == plain.stderr.split("\n")[1:-2]
    assert run("--lang", "en", *argv, lang=JA).stderr == plain.stderr


# A command missing its subcommand names the words to type, never argparse's internal name.
COMMANDS = {
    (): "evaluate,check,publish,score-attack,config-template,attr-depth,anonymize,attack,seq,"
    "dp,synth,scorer",
    ("seq",): "check,baseline",
    ("dp",): "epsilon,release,estimate,score,check",
    ("synth",): "describe,check,score-release,baseline,attack-dcr,attack-density,practice,"
    "score-attack",
    ("scorer",): "run",
}


@pytest.mark.parametrize("words", COMMANDS, ids=lambda v: " ".join(v) or "top")
def test_a_missing_subcommand_is_named_by_its_choices(words):
    choices = "{" + COMMANDS[words] + "}"
    prog = " ".join(("python -m scoring", *words))
    english, japanese = run(*words), run("--lang", "ja", *words)
    assert english.stderr.endswith(
        f"{prog}: error: the following arguments are required: {choices}\n"
    ), english.stderr
    assert japanese.stderr.endswith(f"{prog}: エラー: 次の引数が必要です: {choices}\n")
    assert "_command" not in english.stderr + japanese.stderr


def test_an_invalid_lang_is_said_in_the_environment_s_language():
    done = run("--lang", "xx", "evaluate", lang=JA)
    assert done.stderr.endswith(
        "python -m scoring: エラー: 引数 --lang: 使えない値です: 'xx'（選べるのは 'en', 'ja'）\n"
    )


def test_a_message_no_pattern_knows_stays_as_written():
    assert translated("argument --x: a wording of another Python", "ja") == (
        "引数 --x: a wording of another Python"
    )


# A command's own refusals of a value, in English (as before) and in Japanese.
OWN_REFUSALS = [
    (
        "anonymize a --config c -o o --param k=1",
        "anonymize: error: --param must follow a --method",
        "anonymize: エラー: --param は --method の後に指定します",
    ),
    (
        "anonymize a --config c -o o --method mdav --param k",
        "anonymize: error: --param 'k': expected KEY=VALUE",
        "anonymize: エラー: --param 'k': KEY=VALUE の形で指定します",
    ),
    (
        "scorer run --program p --output o --target t",
        "scorer run: error: argument --target: expected NAME=DIR, got 't'",
        "scorer run: エラー: 引数 --target: NAME=DIR の形で指定します: 't'",
    ),
    (
        "dp release t --config c --level 1 -o o --groups age",
        "dp release: error: argument --groups: group 'age': expected "
        "ATTR[+ATTR...]:rho=R or ATTR[+ATTR...]:epsilon=E",
        "dp release: エラー: 引数 --groups: グループ 'age': "
        "ATTR[+ATTR...]:rho=R か ATTR[+ATTR...]:epsilon=E の形で指定します",
    ),
    (
        "evaluate a b --config c --range age",
        "evaluate: error: argument --range: expected COLUMN=LOW:HIGH, got 'age'",
        "evaluate: エラー: 引数 --range: COLUMN=LOW:HIGH の形で指定します: 'age'",
    ),
]


@pytest.mark.parametrize(("line", "english", "japanese"), OWN_REFUSALS, ids=lambda v: v[:30])
def test_a_command_s_own_refusal_follows_the_language(line, english, japanese):
    plain, done = run(*line.split()), run("--lang", "ja", *line.split())
    assert plain.returncode == done.returncode == 2
    assert plain.stderr.endswith(f"python -m scoring {english}\n"), plain.stderr
    assert done.stderr.endswith(f"python -m scoring {japanese}\n"), done.stderr


def test_the_entry_point_says_it_in_japanese_too():
    child = as_child("evaluate", lang=JA)
    assert child.returncode == 2 and child.stderr == run("evaluate", lang=JA).stderr
