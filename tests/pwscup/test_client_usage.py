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


def test_a_missing_command_is_named_by_its_choices(capsys, monkeypatch):
    said = refusal(capsys, monkeypatch, [])
    choices = "{login,submit,status,download,data,leaderboard,targets,attack,select}"
    assert said.endswith(f"pwscup: error: the following arguments are required: {choices}\n")


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
