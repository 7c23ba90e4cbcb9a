"""``python -m scoring --lang ja … --help`` (or a Japanese ``LANG``) prints the help in
Japanese: argparse's own words and the commands' texts (``help.*``); English help is
argparse's own layout."""

import re

import pytest

from scoring.catalogues.cli_help import HELP_MESSAGES
from tests.scoring.cli_runner import in_process as run

JA = "ja_JP.UTF-8"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# Every command (the kit's list of methods under anonymize/attack, the registry's, stays English).
COMMANDS = ["", "evaluate", "check", "publish", "score-attack", "config-template", "attr-depth"]
COMMANDS += ["anonymize", "attack", "seq", "seq check", "seq baseline", "dp", "dp epsilon"]
COMMANDS += ["dp release", "dp estimate", "dp score", "dp check", "synth", "synth describe"]
COMMANDS += ["synth check", "synth score-release", "synth baseline", "synth attack-dcr"]
COMMANDS += ["synth attack-density", "synth practice", "synth score-attack", "scorer", "scorer run"]
TRANSLATED = [tuple(command.split()) for command in COMMANDS]


def help_column(text: str) -> list[str]:
    """The help texts of a help page: what stands right of an option or a command."""
    texts = []
    for line in text.splitlines():
        listed = re.fullmatch(r" {2,4}\S.*? {2,}(\S.*)", line)
        wrapped = re.fullmatch(r" {24}(\S.*)", line)
        if listed or wrapped:
            texts.append((listed or wrapped).group(1))
    return texts


@pytest.mark.parametrize("words", TRANSLATED, ids=lambda v: " ".join(v) or "top")
def test_the_help_is_japanese_under_lang_ja(words):
    english = run(*words, "--help")
    assert english.stdout.startswith("usage: python -m scoring")
    assert run("--lang", "en", *words, "--help", lang=JA).stdout == english.stdout
    for japanese in (run("--lang", "ja", *words, "--help"), run(*words, "--help", lang=JA)):
        assert japanese.returncode == 0 and japanese.stderr == ""
        page = japanese.stdout
        assert page.startswith("使い方: python -m scoring"), page
        assert re.search(r"\nオプション:\n  -h, --help +このヘルプを表示して終了する\n", page)
        for word in ("usage:", "positional arguments", "options:", "show this help"):
            assert word not in page, page
        assert page.count("\n  -") == english.stdout.count("\n  -")  # the same options
        texts = help_column(page)
        assert texts and [t for t in texts if not JAPANESE.search(t)] == [], page


def test_the_commands_texts_come_from_the_catalogue():
    page = run("--lang", "ja", "seq", "baseline", "--help").stdout
    assert HELP_MESSAGES["help.seq.release"]["ja"] in page
    assert "あなたのチームの release_{J-1}.csv" in page  # a doubled brace, rendered once
    assert "位置引数:\n  table                 T(J).csv（または master.csv）\n" in page
    assert "positional arguments:\n  table                 T(J).csv (or master.csv)\n" in (
        run("seq", "baseline", "--help").stdout
    )
