"""``python -m scoring --lang ja … --help`` (or a Japanese ``LANG``) prints the help in
Japanese: argparse's own words and the commands' texts (``help.*``); English help is
argparse's own layout."""

import re

import pytest

from scoring.catalogues.cli_help import HELP_MESSAGES
from scoring.cli_usage import display_width
from scoring.kit.registry import ATTACK_ENTRIES, METHODS
from tests.scoring.cli_runner import in_process as run

JA = "ja_JP.UTF-8"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")
# Every command.
COMMANDS = ["", "evaluate", "check", "publish", "score-attack", "config-template", "attr-depth"]
COMMANDS += ["anonymize", "attack", "seq", "seq check", "seq baseline", "dp", "dp epsilon"]
COMMANDS += ["dp release", "dp estimate", "dp score", "dp check", "synth", "synth describe"]
COMMANDS += ["synth check", "synth score-release", "synth baseline", "synth attack-dcr"]
COMMANDS += ["synth attack-density", "synth practice", "synth score-attack", "scorer", "scorer run"]
TRANSLATED = [tuple(command.split()) for command in COMMANDS]


def help_column(text: str) -> list[str]:
    """The help texts of a help page: what stands right of an option or a command, a text
    continued on the lines under it joined to it."""
    texts, starts = [], False
    for line in text.splitlines():
        listed = re.fullmatch(r" {2,4}\S.*? {2,}(\S.*)", line)
        wrapped = re.fullmatch(r" {24}(\S.*)", line)
        if listed or (wrapped and (starts or not texts)):
            texts.append((listed or wrapped).group(1))
        elif wrapped:
            texts[-1] += wrapped.group(1)
        # An option too long for the column: its text starts on the next line.
        starts = bool(re.fullmatch(r" {2,4}\S+(?: \S+)*", line))
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


@pytest.mark.parametrize(("command", "names"), [("anonymize", METHODS), ("attack", ATTACK_ENTRIES)])
def test_the_kit_s_methods_and_attacks_are_listed_in_japanese(command, names):
    english = run(command, "--help").stdout
    japanese = run("--lang", "ja", command, "--help").stdout
    assert "parameters as --param KEY=VALUE" in english and "\nexample:\n" in english
    assert "パラメータは" in japanese and "\n例:\n" in japanese
    listed = [line for line in japanese.splitlines() if re.match(r"  \w+: ", line)]
    assert [line.split(":")[0].strip() for line in listed] == list(names)
    assert all(JAPANESE.search(line.split(":", 1)[1]) for line in listed), listed
    parameters = [line for line in japanese.splitlines() if re.match(r" {6}\w+ \(\w+, ", line)]
    assert parameters and all(JAPANESE.search(line) for line in parameters), parameters


@pytest.mark.parametrize("words", TRANSLATED, ids=lambda v: " ".join(v) or "top")
def test_japanese_help_fits_the_terminal_s_columns(words):
    """argparse wraps a help text by characters, and a Japanese character takes two columns:
    at 80 columns (argparse lays out to 78) every Japanese line fits, a help text continued
    under its own column. A line with no Japanese is argparse's own (its list of choices
    cannot be broken, in English neither)."""
    page = run("--lang", "ja", *words, "--help").stdout
    for line in page.splitlines():
        if JAPANESE.search(line):
            assert display_width(line) <= 78, (line, display_width(line))
    # Continued lines keep the column: as many texts as in English.
    assert len(help_column(page)) == len(help_column(run(*words, "--help").stdout))


def test_a_long_japanese_help_text_continues_under_its_column():
    page = run("--lang", "ja", "evaluate", "--help").stdout
    start = page.index("  --classes OUT.csv")
    lines = page[start:].splitlines()[:3]
    column = lines[0].index("indicators")
    assert [len(line) - len(line.lstrip()) for line in lines[1:]] == [column, column], lines
    assert "".join(line.strip() for line in lines[1:]).startswith("クラスごとの表")
