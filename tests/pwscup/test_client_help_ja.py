"""The ``pwscup`` client's command line under ``PWSCUP_LANG=ja``: its help fits the terminal
(a Japanese character takes two columns, argparse counts one) and argparse's refusals are
said in Japanese; in English both are argparse's own, byte for byte."""

import argparse
import doctest
import re

import pytest

from pwscup.client import cli, parser
from pwscup.client.formatting import text_width

CLOSING, OPENING = "、。）」』】)]}", "（「『【([{"
# An option or a command with its help: the help column is where its text starts.
LISTED = re.compile(r"( {2,4}\S+(?: \S+)*? {2,})\S")


def printed(capsys, monkeypatch, argv, *, language, columns=80):
    """What the client prints for ``argv`` in a terminal of ``columns``: (status, out, err)."""
    monkeypatch.setenv("PWSCUP_LANG", language)
    monkeypatch.setenv("COLUMNS", str(columns))
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    said = capsys.readouterr()
    return exit_.value.code, said.out, said.err


def commands() -> list[list[str]]:
    """The top page and every subcommand (an alias too), as the English help lists them."""
    page = cli.build_parser().format_help()
    names = [
        name
        for found in re.finditer(r"^    (\w+)(?: \((\w+)\))?", page, re.M)
        for name in found.groups()
        if name
    ]
    assert "submit" in names and "select" in names
    return [[], *([name] for name in names)]


@pytest.mark.parametrize("columns", [80, 60])
@pytest.mark.parametrize("command", commands(), ids=lambda words: " ".join(words) or "top")
def test_every_japanese_help_line_fits_the_terminal(capsys, monkeypatch, command, columns):
    status, page, _err = printed(
        capsys, monkeypatch, [*command, "--help"], language="ja", columns=columns
    )
    assert status == 0 and page.startswith("使い方: pwscup")
    for line in page.splitlines():
        assert text_width(line) <= columns - 2, line  # argparse's width: the terminal's less two
        stripped = line.strip()
        assert not stripped or (stripped[0] not in CLOSING and stripped[-1] not in OPENING), line
    # Only where the lines break changed: the page says what it said unfitted.
    _status, wide, _err = printed(
        capsys, monkeypatch, [*command, "--help"], language="ja", columns=500
    )
    assert re.sub(r"\s", "", page) == re.sub(r"\s", "", wide)


def test_a_japanese_help_text_continues_under_its_help_column(capsys, monkeypatch):
    _status, page, _err = printed(
        capsys, monkeypatch, ["submit", "--help"], language="ja", columns=50
    )
    column, continued = None, 0
    for line in page.split("\n\n", 1)[1].splitlines():
        listed = LISTED.match(line)
        if listed:
            column = len(listed.group(1))
        elif line.startswith(" ") and column:
            assert len(line) - len(line.lstrip()) == column, line
            continued += 1
        else:
            column = None
    assert continued >= 3
    usage = page.split("\n\n", 1)[0].splitlines()
    assert len(usage) > 1  # continued under its first argument, in columns
    first = text_width("使い方: pwscup submit ")
    assert all(len(line) - len(line.lstrip()) == first for line in usage[1:]), usage


def test_the_help_fitter_breaks_japanese_where_it_may():
    assert doctest.testmod(parser).failed == 0
    text = "  --x  あいうえお、かきくけこ。（さしすせそ）「たちつてと」"
    for width in range(12, 40):
        lines = parser.broken(text, width, 7).split("\n")
        assert re.sub(r"\s", "", "".join(lines)) == re.sub(r"\s", "", text)
        for line in lines[1:]:
            assert line[:7] == " " * 7 and line[7] != " " and line[7] not in CLOSING, lines
        assert all(line[-1] not in OPENING for line in lines), lines
        assert all(text_width(line) <= width for line in lines), (width, lines)


@pytest.mark.parametrize("command", commands(), ids=lambda words: " ".join(words) or "top")
def test_the_english_help_is_argparse_s_own(capsys, monkeypatch, command):
    for columns in (80, 50):
        _status, page, _err = printed(
            capsys, monkeypatch, [*command, "-h"], language="en", columns=columns
        )
        monkeypatch.setattr(parser, "HelpFormatter", argparse.HelpFormatter)
        _status, own, _err = printed(
            capsys, monkeypatch, [*command, "-h"], language="en", columns=columns
        )
        monkeypatch.undo()
        assert page == own and page.startswith("usage: pwscup")


# A refused line, and what the Japanese refusal says (a pattern: Python's own list of the
# choices may be written otherwise by another version).
REFUSALS = [
    ([], r"pwscup: エラー: 次の引数が必要です: コマンド"),
    (
        ["frob"],
        r"pwscup: エラー: 引数 コマンド: 選べない値です: 'frob' \(選べるのは .*submit.*\)",
    ),
    (["submit"], r"pwscup submit: エラー: 次の引数が必要です: round, file"),
    (["status", "c/r", "extra"], r"pwscup: エラー: 認識できない引数です: extra"),
    (
        ["submit", "c/r", "f.csv", "--timeout"],
        r"pwscup submit: エラー: 引数 --timeout: 値が 1 つ必要です",
    ),
    (
        ["submit", "c/r", "f.csv", "--t", "9"],
        r"pwscup submit: エラー: オプション --t があいまいです \(--type, --timeout のどれにも当てはまります\)",
    ),
    (
        ["submit", "c/r", "f.csv", "--wait=yes"],
        r"pwscup submit: エラー: 引数 --wait: このオプションは値を取りません: 'yes'",
    ),
]


@pytest.mark.parametrize(
    ("argv", "japanese"), REFUSALS, ids=[" ".join(a) or "none" for a, _ in REFUSALS]
)
def test_argparse_s_refusals_are_said_in_japanese(capsys, monkeypatch, argv, japanese):
    status, _out, said = printed(capsys, monkeypatch, argv, language="ja")
    assert status == 2 and said.startswith("使い方: pwscup")
    assert re.fullmatch(japanese, said.splitlines()[-1]), said
    assert not re.search(r"usage:|error:|argument|expected|invalid|unrecognized", said), said
    status, _out, english = printed(capsys, monkeypatch, argv, language="en")
    assert status == 2 and english.startswith("usage: pwscup") and ": error: " in english
    # argparse's own refusal, byte for byte: the same line refused by its own ``error``.
    monkeypatch.setattr(parser.Parser, "error", argparse.ArgumentParser.error)
    assert printed(capsys, monkeypatch, argv, language="en")[2] == english


def test_a_refused_value_of_a_type_is_said_in_japanese(capsys, monkeypatch):
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    demo = parser.Parser(prog="demo")
    demo.add_argument("--scale", type=float)
    with pytest.raises(SystemExit):
        demo.parse_args(["--scale", "x"])
    said = capsys.readouterr().err
    assert (
        said
        == "使い方: demo [-h] [--scale SCALE]\ndemo: エラー: 引数 --scale: float の値として読めません: 'x'\n"
    )
    monkeypatch.setenv("PWSCUP_LANG", "en")
    assert parser.refusal("argument --scale: invalid float value: 'x'") == (
        "argument --scale: invalid float value: 'x'"
    )
    monkeypatch.setenv("PWSCUP_LANG", "ja")
    assert parser.refusal("a wording of another Python") == "a wording of another Python"
