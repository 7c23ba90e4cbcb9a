"""End-to-end runs of ``python -m scoring``: in this process (``tests/scoring/cli_runner``),
and through a real child interpreter for the entry point and the environment's language."""

import json

import pytest

from tests.scoring.cli_runner import as_child
from tests.scoring.cli_runner import in_process as run
from tests.scoring.test_worked_examples import CONFIG

X = "QI1,QI2,QI3,SA1,SA2\n2,1,1,100,100\n2,1,1,200,400\n1,1,2,300,200\n1,1,2,400,500\n"
B = "QI1,QI2,QI3,SA1,SA2\n2,1,1,110,90\n2,1,1,220,390\n1,1,2,280,210\n1,1,2,390,520\n"
DELETED = "QI1,QI2,QI3,SA1,SA2\n2,1,1,100,100\n,,,,\n1,1,2,300,200\n1,1,2,400,500\n"


@pytest.fixture
def files(tmp_path):
    (tmp_path / "x.csv").write_text(X)
    (tmp_path / "b.csv").write_text(B)
    (tmp_path / "d.csv").write_text(DELETED)
    (tmp_path / "round.json").write_text(json.dumps(CONFIG))
    return tmp_path


def test_evaluate_json(files):
    result = run(
        "evaluate",
        files / "x.csv",
        files / "b.csv",
        "--config",
        files / "round.json",
        "--format",
        "json",
    )
    assert result.returncode == 0, result.stderr
    values = json.loads(result.stdout)
    assert values["U1"] == 1.25 and values["U2"] == 13.75 and values["E1"] == 0.5
    assert set(values) >= {
        "U1",
        "U2",
        "U3",
        "U4",
        "U5",
        "U6",
        "S1",
        "S2",
        "E1",
        "E2",
        "E3",
        "E4",
        "EUC1",
        "EUC2",
    }


def test_evaluate_table_is_default(files):
    result = run("evaluate", files / "x.csv", files / "b.csv", "--config", files / "round.json")
    assert result.returncode == 0, result.stderr
    assert "U2      crossMean" in result.stdout and "13.7500" in result.stdout
    assert "EUC2" in result.stdout


def test_evaluate_invalid_submission_exits_2(files):
    (files / "bad.csv").write_text(B.replace("220", "abc"))
    result = run("evaluate", files / "x.csv", files / "bad.csv", "--config", files / "round.json")
    assert result.returncode == 2
    assert "'SA1'" in result.stderr and "row 2 ('abc')" in result.stderr
    assert result.stdout == ""


@pytest.mark.parametrize("cell", ["2²0", "②20", "٢٢٠", "𝟐𝟐𝟎"])
def test_evaluate_refuses_a_cell_of_digits_that_are_not_decimal_digits(files, cell):
    """Superscripts, circled and mathematical digits fold to ASCII under NFKC, and Python's
    ``int()`` reads Arabic-Indic ones: none is a number here (full-width ``２２０`` is)."""
    (files / "bad.csv").write_text(B.replace("220", cell), encoding="utf-8")
    result = run("evaluate", files / "x.csv", files / "bad.csv", "--config", files / "round.json")
    assert result.returncode == 2, result.stdout
    assert "'SA1'" in result.stderr and f"row 2 ({cell!r})" in result.stderr
    (files / "wide.csv").write_text(B.replace("220", "２２０"), encoding="utf-8")
    wide = run("evaluate", files / "x.csv", files / "wide.csv", "--config", files / "round.json")
    assert wide.returncode == 0, wide.stderr


def test_evaluate_bad_config_exits_2(files):
    (files / "bad.json").write_text(json.dumps({**CONFIG, "e2_column": "QI1"}))
    result = run("evaluate", files / "x.csv", files / "b.csv", "--config", files / "bad.json")
    assert result.returncode == 2 and '"e2_column"' in result.stderr


def test_check_ok_and_failure(files):
    ok = run("check", files / "x.csv", files / "b.csv", "--config", files / "round.json")
    assert ok.returncode == 0 and ok.stdout.startswith("OK:")
    (files / "short.csv").write_text(B.rsplit("\n", 2)[0] + "\n")
    bad = run("check", files / "x.csv", files / "short.csv", "--config", files / "round.json")
    assert bad.returncode == 2 and "expected 4" in bad.stderr


def test_the_entry_point_runs_the_same_command_in_a_child(files):
    """``python -m scoring`` itself: the same answers from a child interpreter, its
    messages in the language of its environment's ``LANG``."""
    arguments = ("check", files / "x.csv", files / "b.csv", "--config", files / "round.json")
    child, here = as_child(*arguments), run(*arguments)
    assert (child.returncode, child.stdout, child.stderr) == (0, here.stdout, here.stderr)
    (files / "short.csv").write_text(B.rsplit("\n", 2)[0] + "\n")
    refused = ("check", files / "x.csv", files / "short.csv", "--config", files / "round.json")
    japanese = as_child(*refused, lang="ja_JP.UTF-8")
    assert japanese.returncode == 2 and japanese.stderr == run(*refused, lang="ja_JP.UTF-8").stderr
    assert japanese.stderr != as_child(*refused).stderr  # not the English message


def test_pwscup_lang_chooses_the_language_before_the_locale(files):
    """A student who set ``PWSCUP_LANG=ja`` for the client gets the kit's messages in
    Japanese too, whatever ``LANG`` says; ``--lang`` still wins over both."""
    (files / "short.csv").write_text(B.rsplit("\n", 2)[0] + "\n")
    refused = ("check", files / "x.csv", files / "short.csv", "--config", files / "round.json")
    japanese = run(*refused, lang="ja_JP.UTF-8").stderr
    english = run(*refused).stderr
    assert japanese != english
    assert run(*refused, env={"PWSCUP_LANG": "ja"}).stderr == japanese
    assert run(*refused, lang="ja_JP.UTF-8", env={"PWSCUP_LANG": "en"}).stderr == english
    assert run("--lang", "en", *refused, env={"PWSCUP_LANG": "ja"}).stderr == english


def test_missing_file_exits_2(files):
    result = run("check", files / "x.csv", files / "nope.csv", "--config", files / "round.json")
    assert result.returncode == 2 and "cannot read" in result.stderr


def test_publish_then_score_attack(files):
    published, truth = files / "p.csv", files / "t.csv"
    result = run(
        "publish",
        files / "d.csv",
        "--seed",
        "7",
        "--out-published",
        published,
        "--out-truth",
        truth,
    )
    assert result.returncode == 0, result.stderr
    truth_lines = truth.read_text().splitlines()
    assert truth_lines[0] == "row" and sorted(truth_lines[1:]) == ["1", "3", "4"]
    rows = published.read_text().splitlines()
    assert rows[0] == "QI1,QI2,QI3,SA1,SA2" and len(rows) == 4
    original = X.splitlines()
    for line, number in zip(rows[1:], truth_lines[1:], strict=True):
        assert line == original[int(number)]
    # A perfect answer, then one with a single right guess.
    (files / "perfect.csv").write_text("guess\n" + "\n".join(truth_lines[1:]) + "\n")
    perfect = run("score-attack", files / "perfect.csv", "--truth", truth, "--format", "json")
    assert perfect.returncode == 0, perfect.stderr
    assert json.loads(perfect.stdout) == {"rate": 1.0, "correct": 3, "rows": 3}
    (files / "one.csv").write_text(truth_lines[1] + "\n\n0\n")
    one = run(
        "score-attack",
        files / "one.csv",
        "--truth",
        truth,
        "--format",
        "json",
        "--reference-rows",
        "4",
    )
    assert json.loads(one.stdout) == {"rate": pytest.approx(1 / 3), "correct": 1, "rows": 3}


def test_score_attack_malformed_answer_exits_2(files):
    (files / "t.csv").write_text("row\n1\n3\n4\n")
    (files / "a.csv").write_text("1\nabc\n9\n")
    result = run("score-attack", files / "a.csv", "--truth", files / "t.csv")
    assert result.returncode == 2 and "line 2 ('abc')" in result.stderr
    (files / "a.csv").write_text("1\n2\n9\n")
    bound = ["--reference-rows", "4"]  # without it, 9 may be a row of the reference
    result = run("score-attack", files / "a.csv", "--truth", files / "t.csv", *bound)
    assert result.returncode == 2 and "line 3 ('9')" in result.stderr and "1 and 4" in result.stderr


def test_config_template(files):
    result = run("config-template", files / "x.csv")
    assert result.returncode == 0, result.stderr
    template = json.loads(result.stdout)
    assert set(template) >= {"qi", "sa", "cross", "e2_column", "e4_column"}


def test_usage_error_exits_2():
    assert run("evaluate").returncode == 2


def test_messages_follow_lang_or_the_lang_option(files):
    (files / "t.csv").write_text("row\n1\n3\n4\n")
    (files / "a.csv").write_text("1\nabc\n9\n")
    english = run("score-attack", files / "a.csv", "--truth", files / "t.csv")
    assert "not an integer at line 2 ('abc') (1 line in total)" in english.stderr
    japanese = run("score-attack", files / "a.csv", "--truth", files / "t.csv", lang="ja_JP.UTF-8")
    assert "整数でない行: 2 行目 ('abc')（計 1 行）" in japanese.stderr
    option = run("--lang", "ja", "score-attack", files / "a.csv", "--truth", files / "t.csv")
    assert option.returncode == 2 and option.stderr == japanese.stderr
