"""The client's argument parser in the client's language: argparse's own words of a help page
(the usage prefix, the section headings, ``-h``'s text) through its public hooks, a
``formatter_class`` and an explicit ``-h``; its refusals of a command line (``error``); the
Japanese page fitted to the terminal's columns; and the one number its options take (seconds).

The scoring library's command line does the same from its catalogue (``scoring.cli_usage``);
the client is standard library only and cannot import it, so its words are ``tr`` entries and
its layout is :func:`fitted` here. In English the help and the refusals are argparse's own,
byte for byte.
"""

import argparse
import re
import shutil
import sys

from pwscup.client.formatting import text_width
from pwscup.client.messages import language, tr

# Seconds as the scoring library's number rule reads a cell, without a sign: ASCII digits
# (full-width ones folded), an optional fraction and exponent. float() also reads "1_000", "٣".
_SECONDS = re.compile(r"([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?")
_FULL_WIDTH_TO_ASCII = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}


def seconds(value: str) -> float:
    """A duration option's value (``--timeout 600``), or argparse's refusal naming it."""
    text = value.strip().translate(_FULL_WIDTH_TO_ASCII)
    if not _SECONDS.fullmatch(text):
        raise argparse.ArgumentTypeError(
            tr("{value!r}: give a number of seconds in ASCII digits, e.g. 600").format(value=value)
        )
    return float(text)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's formatter with its own words in the client's language, a Japanese page
    fitted to the terminal (:func:`fitted`)."""

    def start_section(self, heading):
        words = {"positional arguments": tr("positional arguments"), "options": tr("options")}
        super().start_section(words.get(heading, heading))

    def add_usage(self, usage, actions, groups, prefix=None):
        # argparse lays the usage out by characters: with "usage:" padded to the Japanese
        # prefix's columns (swapped in format_help), its wrapped lines stay under its first
        # argument and within the width.
        if prefix is None and language() == "ja":
            prefix = _padded_prefix()
        super().add_usage(usage, actions, groups, prefix)

    def format_help(self):
        text = super().format_help()
        if language() != "ja":
            return text  # argparse's own page, byte for byte
        if text.startswith(_padded_prefix()):
            text = tr("usage: ") + text[len(_padded_prefix()) :]
        # argparse makes its formatter with ``prog`` alone; its width is the terminal's less two.
        return fitted(text, shutil.get_terminal_size().columns - 2)


def _padded_prefix() -> str:
    return "usage: ".ljust(text_width(tr("usage: ")))


# Characters a Japanese line does not start with (closing what stands before it, small kana)
# and those it does not end with (opening what follows).
_NO_START = frozenset(
    "、。，．・：；？！ー…）」』】〕》ぁぃぅぇぉっゃゅょァィゥェォッャュョ)]},.:;!?"
)
_NO_END = frozenset("（「『【〔《([{")
# An option or a command listed with its help: its name(s), two spaces or more, the text.
_LISTED = re.compile(r" +\S+(?: \S+)*? {2,}(?=\S)")


def _lead(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _wide(text: str) -> bool:
    return text_width(text) > len(text)


def fitted(page: str, width: int) -> str:
    """A Japanese help page in ``width`` columns: argparse wraps a text by characters, and a
    Japanese character takes two columns. A text argparse wrapped is joined again (it broke
    it at a space) and broken where Japanese may break (:func:`broken`), each line continued
    at its help column (an option's, a command's, a paragraph's). A line without wide
    characters stays as argparse laid it out.
    """
    texts: list[tuple[str, int]] = []  # a text and where its continued lines start
    for line in page.split("\n"):
        listed = _LISTED.match(line)
        previous, indent = texts[-1] if texts else ("", 0)
        if line.strip() and not listed and _wide(previous) and _lead(line) == indent:
            texts[-1] = (f"{previous} {line.lstrip()}", indent)
        else:
            texts.append((line, listed.end() if listed else _lead(line)))
    return "\n".join(broken(text, width, indent) if _wide(text) else text for text, indent in texts)


def broken(line: str, width: int, indent: int) -> str:
    """``line`` broken into lines of ``width`` columns, each continued at ``indent``: at a
    space or beside a wide character, never before closing punctuation nor after opening,
    and inside a `command` only when nothing else fits. A part that cannot be broken stays
    as it is.

    >>> print(broken("  --type TYPE  ラウンドに複数の種類があるとき (`pwscup status`)", 40, 15))
      --type TYPE  ラウンドに複数の種類があ
                   るとき (`pwscup status`)
    """
    lines = []
    while text_width(line) > width and (cut := _last_break(line, width, indent)):
        lines.append(line[:cut].rstrip())
        line = " " * indent + line[cut:].lstrip()
    return "\n".join([*lines, line])


def _last_break(line: str, width: int, indent: int) -> int | None:
    """The last place past ``indent`` where ``line`` may break within ``width`` columns,
    outside backquotes if there is one."""
    best, quoted_best, used, quoted = None, None, 0, False
    for index, char in enumerate(line[:-1]):
        used += text_width(char)
        if used > width:
            break
        quoted ^= char == "`"
        pair = line[index : index + 2]
        before, after = line[: index + 1].rstrip()[-1:], line[index + 1 :].lstrip()[:1]
        if index < indent or not after or not (" " in pair or _wide(pair)):
            continue
        if before not in _NO_END and after not in _NO_START:
            best, quoted_best = (best, index + 1) if quoted else (index + 1, quoted_best)
    return best or quoted_best


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help and refusals speak the client's language; its
    subcommands' parsers are of the same class (argparse makes them of its parser's class)."""

    def __init__(self, *args, add_help=True, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, add_help=False, **kwargs)
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", help=tr("show this help message and exit")
            )

    def error(self, message):
        """argparse's refusal of the line (the hook it documents): the usage, then
        ``prog: error: message`` in the client's language; exit status 2, as argparse's."""
        self.print_usage(sys.stderr)
        self.exit(2, f"{self.prog}: {tr('error: {error}').format(error=refusal(message))}\n")


def _refusals(lang: str) -> tuple[str, ...]:
    """argparse's refusals of a line as Python 3.11 to 3.13 word them, in ``lang``: a
    ``{name}`` where argparse puts a value. The English ones are read as patterns."""
    return (
        tr("the following arguments are required: {names}", lang),
        tr("unrecognized arguments: {arguments}", lang),
        tr("ambiguous option: {option} could match {matches}", lang),
        tr("argument {argument}: {message}", lang),
        tr("invalid choice: {value} (choose from {choices})", lang),
        tr("invalid {type} value: {value}", lang),
        tr("expected one argument", lang),
        tr("ignored explicit argument {value}", lang),
    )


def refusal(message: str) -> str:
    """argparse's English ``message`` in the client's language; one of a wording this does
    not know (another Python's) stays argparse's, as does every one in English. Under
    ``ja``, ``argument --timeout: expected one argument`` is ``引数 --timeout: 値が 1 つ必要です``
    (the message after an argument's name is itself one of argparse's).
    """
    if language() == "en":
        return message
    for english, words in zip(_refusals("en"), _refusals(language()), strict=True):
        pattern = re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>.+?)", re.escape(english))
        if found := re.fullmatch(pattern, message):
            values = found.groupdict()
            if "message" in values:
                values["message"] = refusal(values["message"])
            return words.format(**values)
    return message
