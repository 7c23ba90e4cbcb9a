"""The ``pwscup`` client's own messages: every one has its Japanese entry, the language
follows ``$PWSCUP_LANG``, else the locale, else English; the console script speaks it."""

import ast
import re
from pathlib import Path

import pytest

from pwscup.client import messages
from tests.support import run_pwscup as run

CLIENT = Path(messages.__file__).parent
LOCALE_VARIABLES = ("PWSCUP_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def client_messages() -> set[str]:
    """Every literal passed to ``tr(...)`` in the client's modules."""
    found = set()
    for path in CLIENT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "tr"
            ):
                assert isinstance(node.args[0], ast.Constant), f"{path.name}: tr() of a non-literal"
                found.add(node.args[0].value)
    return found


def test_every_client_message_has_a_japanese_entry_with_the_same_placeholders():
    used = client_messages()
    assert len(used) > 40
    missing = sorted(used - messages.JA.keys())
    assert not missing, f"add to pwscup/client/messages.py JA: {missing}"
    assert not sorted(messages.JA.keys() - used), "entries no message uses"
    for english, japanese in messages.JA.items():
        placeholders = sorted(re.findall(r"\{[^}]*\}", english))
        assert sorted(re.findall(r"\{[^}]*\}", japanese)) == placeholders, english
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", japanese), english


@pytest.fixture
def no_locale(monkeypatch):
    for name in LOCALE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(messages.locale, "getlocale", lambda: (None, None))
    return monkeypatch


@pytest.mark.parametrize(
    ("environment", "expected"),
    [
        ({}, "en"),
        ({"PWSCUP_LANG": "ja"}, "ja"),
        ({"PWSCUP_LANG": "en", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LANG": "ja_JP.UTF-8"}, "ja"),
        ({"LC_ALL": "ja_JP.UTF-8", "LANG": "en_US.UTF-8"}, "ja"),
        ({"LC_MESSAGES": "en_GB.UTF-8", "LANG": "ja_JP.UTF-8"}, "en"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
    ],
)
def test_the_language_is_pwscup_lang_else_the_locale_else_english(no_locale, environment, expected):
    for name, value in environment.items():
        no_locale.setenv(name, value)
    assert messages.language() == expected


def test_the_system_locale_is_read_when_no_variable_says(no_locale):
    no_locale.setattr(messages.locale, "getlocale", lambda: ("ja_JP", "UTF-8"))
    assert messages.language() == "ja"
    assert messages.tr("no token given") == "トークンが入力されていません"


def test_the_console_script_speaks_japanese_under_pwscup_lang_ja(tmp_path):
    not_logged_in = run(["status"], config_dir=tmp_path, language="ja")
    assert not_logged_in.returncode == 2
    assert "ログインしていません" in not_logged_in.stderr, not_logged_in.stderr
    bad_round = run(["leaderboard", "no-slash"], config_dir=tmp_path, language="ja")
    assert "COMPETITION/ROUND (ページの URL" in bad_round.stderr
    helped = run(["--help"], config_dir=tmp_path, language="ja")
    assert "ラウンドにファイルを提出する" in helped.stdout
    english = run(["status"], config_dir=tmp_path, language="en")
    assert "not logged in: run `pwscup login URL` first" in english.stderr
