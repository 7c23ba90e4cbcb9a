"""The ``pwscup`` client's command line as a user meets it: a refused line names what to
type, in the client's language."""

import pytest

from pwscup.client import cli


def refusal(capsys, monkeypatch, argv, language="en") -> str:
    """What the client writes on stderr when argparse refuses ``argv`` (exit status 2)."""
    monkeypatch.setenv("PWSCUP_LANG", language)
    with pytest.raises(SystemExit) as exit_:
        cli.main(argv)
    assert exit_.value.code == 2
    return capsys.readouterr().err


def test_a_missing_command_is_named_and_a_wrong_one_lists_the_commands(capsys, monkeypatch):
    said = refusal(capsys, monkeypatch, [])
    assert said == (
        "usage: pwscup [-h] COMMAND ...\n"
        "pwscup: error: the following arguments are required: COMMAND\n"
    )
    said = refusal(capsys, monkeypatch, ["frob"])
    for command in ("login", "submit", "status", "download", "leaderboard", "select"):
        assert f"'{command}'" in said
    said = refusal(capsys, monkeypatch, [], "ja")
    assert (
        said == "使い方: pwscup [-h] コマンド ...\npwscup: エラー: 次の引数が必要です: コマンド\n"
    )


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_top_help_fits_an_80_column_terminal(capsys, monkeypatch, language):
    """The usage line names the commands by one word: their list (84 columns with its
    indent) ran past an 80-column terminal."""
    monkeypatch.setenv("PWSCUP_LANG", language)
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    page = capsys.readouterr().out
    assert "submit" in page and "leaderboard" in page
    widths = [sum(2 if ord(char) > 0x2E7F else 1 for char in line) for line in page.splitlines()]
    assert max(widths) <= 78, page


def test_the_help_speaks_the_client_s_language(capsys, monkeypatch):
    pages = {}
    for language in ("en", "ja"):
        monkeypatch.setenv("PWSCUP_LANG", language)
        with pytest.raises(SystemExit) as exit_:
            cli.main(["submit", "--help"])
        assert exit_.value.code == 0
        pages[language] = capsys.readouterr().out
    assert pages["en"].startswith("usage: pwscup submit [-h]")
    assert "\noptions:\n  -h, --help          show this help message and exit\n" in pages["en"]
    assert pages["ja"].startswith("使い方: pwscup submit [-h]")
    assert "\n位置引数:\n  round " in pages["ja"]
    assert "\nオプション:\n  -h, --help          このヘルプを表示して終了する\n" in pages["ja"]
    for word in ("usage:", "positional arguments", "options:", "show this help"):
        assert word not in pages["ja"]


@pytest.mark.parametrize("value", ["1_000", "٣", "²", "-5"])
def test_timeout_takes_seconds_in_ascii_digits(capsys, monkeypatch, value):
    said = refusal(capsys, monkeypatch, ["submit", "c/r", "f.csv", "--timeout", value], "ja")
    assert said.endswith(
        f"pwscup submit: エラー: 引数 --timeout: {value!r}: 秒数は半角の数字で指定してください (例: 600)\n"
    )
    said = refusal(capsys, monkeypatch, ["submit", "c/r", "f.csv", "--timeout", value])
    assert f"{value!r}: give a number of seconds in ASCII digits, e.g. 600\n" in said
    parsed = cli.build_parser().parse_args(["submit", "c/r", "f.csv", "--timeout", "６００"])
    assert parsed.timeout == 600.0


@pytest.mark.parametrize(
    ("language", "first_game_word"), [("en", "correspondence table"), ("ja", "対応表")]
)
def test_attack_s_help_speaks_of_any_kind_s_attack(capsys, monkeypatch, language, first_game_word):
    """``attack`` sends any kind's attack (a synthetic round's ``id,score``, a scorer round's
    guesses): its help does not call the file the 2015 game's correspondence table."""
    monkeypatch.setenv("PWSCUP_LANG", language)
    for argv in (["--help"], ["attack", "--help"]):
        with pytest.raises(SystemExit):
            cli.main(argv)
        out = capsys.readouterr().out
        assert "attack" in out and first_game_word not in out, out
    # The target's choices, in a round of any kind: the status's fields (`targets` lists
    # only the 2015 game's).
    assert "(see `pwscup status ROUND`)" in out or "(`pwscup status ROUND` を参照)" in out
