"""The command line's own text in the language of ``--lang`` or ``LANG``: argparse's
refusals of a line (a missing argument, an invalid choice or value, an unknown option) and
its help (``--help``).

The language is read from the line as typed before it is parsed
(:func:`requested_language`), and the parser is built in it (:func:`usage_parser`): the
commands give their help texts in that language, argparse's own words of the help
(``usage:``, the section headings, ``-h``'s text) come from its ``formatter_class``
(:func:`help_formatter`) and an explicit ``-h``. argparse prints its refusals itself, in
English; a :class:`UsageParser`'s ``error`` (the method argparse documents for reporting
a usage error, overridden here) raises :class:`UsageError` instead, and ``main`` prints
:func:`usage_error_text`. argparse's messages are its English text (the ``usage.*``
catalogue holds each as written by Python 3.11 to 3.13): a message is matched to its code
and parameters and rendered in Japanese; one no pattern matches (a wording of another
Python version) stays as argparse wrote it. The commands' own refusals (an option's value
not of its form, :func:`option_number`) are rendered in the parser's language
(:attr:`UsageParser.language`). In English the output is argparse's own, character for
character.

Examples
--------
>>> parser = usage_parser("ja")(prog="demo")
>>> _ = parser.add_argument("--format", choices=("table", "json"))
>>> try:
...     parser.parse_args(["--format", "xml"])
... except UsageError as error:
...     print(usage_error_text(error, "ja"), end="")
使い方: demo [-h] [--format {table,json}]
demo: エラー: 引数 --format: 使えない値です: 'xml'（選べるのは 'table', 'json'）
"""

from __future__ import annotations

import argparse
import functools
import re
import shutil
import unicodedata
from collections.abc import Sequence

from scoring.messages import clip, language, render
from scoring.numbers import integer_of, number_of


class UsageError(Exception):
    """argparse refused the command line: ``message`` (argparse's English), ``parser`` the
    (sub)command's parser whose usage line goes with it."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser, self.message = parser, message


class UsageParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are raised (:class:`UsageError`), for the
    caller to say in its language, and whose help is in :attr:`language` (argparse's own
    words through its ``formatter_class``, ``-h``'s own help given explicitly; the
    commands' help texts are the caller's). Subcommands' parsers are of the same class
    (argparse makes them of its parser's class): :func:`usage_parser` is the class of a
    language."""

    language = "en"

    def __init__(self, *args, formatter_class=argparse.HelpFormatter, add_help=True, **kwargs):
        formatter_class = help_formatter(formatter_class, self.language)
        super().__init__(*args, formatter_class=formatter_class, add_help=False, **kwargs)
        if add_help:
            shown = render("usage.help", {}, self.language)
            self.add_argument("-h", "--help", action="help", help=shown)

    def error(self, message: str):
        raise UsageError(self, message)


class JapaneseUsageParser(UsageParser):
    """:class:`UsageParser` whose help and refusals are in Japanese."""

    language = "ja"


def usage_parser(lang: str | None) -> type[UsageParser]:
    """The parser class of ``lang`` (English for any other language)."""
    return JapaneseUsageParser if language(lang) == "ja" else UsageParser


class _Translated:
    """A help formatter's usage prefix and section headings in :attr:`language` (mixed into
    an argparse formatter class by :func:`help_formatter`)."""

    language = "en"

    def start_section(self, heading):
        code = _HEADINGS.get(heading)
        super().start_section(render(code, {}, self.language) if code else heading)

    def format_help(self):
        # The prefix is swapped once the usage is laid out: argparse indents its wrapped
        # lines by the prefix's length in characters, and "usage: " takes the columns of
        # "使い方: " give or take one (its characters are two columns wide).
        text = super().format_help()
        english = render("usage.prefix", {}, "en")
        if text.startswith(english):
            text = render("usage.prefix", {}, self.language) + text[len(english) :]
        # argparse builds its formatter with ``prog`` alone: the page's width is its default,
        # the terminal's columns less two.
        return fit_width(text, shutil.get_terminal_size().columns - 2)


def display_width(text: str) -> int:
    """How many terminal columns ``text`` takes: a wide or full-width character two.

    >>> display_width("U_ML は"), len("U_ML は")
    (7, 6)
    """
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


# Characters a Japanese line does not begin with (punctuation closing what stands before),
# and those it does not end with (opening what follows).
_NO_LINE_START = frozenset("、。，．）」』】・：；？！ー…")
_NO_LINE_END = frozenset("（「『【")
# A listed option or command (its name, then two spaces or more) or a kit's method or attack
# in an epilog (its name and a colon), then its text.
_LISTED = re.compile(r" +(?:\S+(?: \S+)*? {2,}|[\w-]+: )(?=\S)")


def fit_width(text: str, width: int) -> str:
    """``text`` (a help page) with each line that holds a wide character and is wider than
    ``width`` columns broken where it may be: at a space, or beside a wide character
    (Japanese has no spaces between words), never before closing punctuation nor after
    opening. A continued line starts at the column its text did (an option's help column, or
    past a listed method's name). argparse wraps by characters, so a Japanese text of its
    width in characters takes up to twice the columns. A line without wide characters stays
    as argparse laid it out (a list of choices, an example command line of a raw epilog), as
    does one it may not be broken in.

    >>> print(fit_width("  check   チームの公開データを検証し、構造を表示する", 32))
      check   チームの公開データを検
              証し、構造を表示する
    """
    out = []
    for line in text.split("\n"):
        if display_width(line) == len(line):  # no wide character: argparse's own layout
            out.append(line)
            continue
        listed = _LISTED.match(line)
        indent = len(listed.group(0)) if listed else len(line) - len(line.lstrip(" "))
        while display_width(line) > width and (cut := _break_at(line, width, indent)):
            out.append(line[:cut].rstrip())
            line = " " * indent + line[cut:].lstrip(" ")
        out.append(line)
    return "\n".join(out)


def _break_at(line: str, width: int, indent: int) -> int | None:
    """The last place past ``indent`` where ``line`` may break within ``width`` columns."""
    best, used = None, 0
    for index, char in enumerate(line):
        used += display_width(char)
        if used > width:
            break
        after = line[index + 1 : index + 2]
        wide = display_width(char) == 2 or display_width(after) == 2
        allowed = after not in _NO_LINE_START and char not in _NO_LINE_END
        if index + 1 > indent and (after == " " or wide) and allowed:
            best = index + 1
    return best


# argparse's own section headings -> their code.
_HEADINGS = {render(code, {}, "en"): code for code in ("usage.positionals", "usage.options")}


@functools.cache
def help_formatter(base: type[argparse.HelpFormatter], lang: str) -> type:
    """``base`` (an argparse formatter class) speaking ``lang``: itself in English."""
    if language(lang) == "en":
        return base
    return type(f"Japanese{base.__name__}", (_Translated, base), {"language": language(lang)})


def option_number(text: str, lang: str = "en", *, integer: bool = False) -> float | int:
    """An option's value read by the number rule of the tables (:mod:`scoring.numbers`:
    ASCII digits, full-width folded): ``float()`` and ``int()`` read ``1_000``, ``٣`` and
    ``²`` too. A value refused raises argparse's ``ArgumentTypeError``, said in ``lang``
    (argparse names the option).

    >>> option_number("2.5"), option_number("７", integer=True)
    (2.5, 7)
    >>> option_number("1_000", "en", integer=True)
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: not an integer: '1_000' (write it in ASCII digits, e.g. 1000)
    """
    try:
        return integer_of(text) if integer else number_of(text)
    except ValueError:
        code = "usage.not_integer" if integer else "usage.not_number"
        raise argparse.ArgumentTypeError(render(code, {"value": repr(clip(text))}, lang)) from None


def number_option(lang: str):
    """argparse's ``type=`` of a number option, refusals said in ``lang``."""
    return functools.partial(option_number, lang=lang)


def integer_option(lang: str):
    """argparse's ``type=`` of an integer option, refusals said in ``lang``."""
    return functools.partial(option_number, lang=lang, integer=True)


# argparse's messages as it writes them -> the code whose parameters are the named groups.
# A message of ``usage.argument`` is itself one of these (its ``message`` is translated too).
_PATTERNS = tuple(
    (re.compile(pattern), code)
    for pattern, code in (
        (r"the following arguments are required: (?P<names>.+)", "usage.required"),
        (r"one of the arguments (?P<names>.+) is required", "usage.one_required"),
        (r"unrecognized arguments: (?P<arguments>.+)", "usage.unrecognized"),
        (r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)", "usage.ambiguous"),
        (r"argument (?P<argument>.+?): (?P<message>.+)", "usage.argument"),
        (r"invalid choice: (?P<value>.+) \(choose from (?P<choices>.+)\)", "usage.invalid_choice"),
        (r"invalid (?P<type>\S+) value: (?P<value>.+)", "usage.invalid_value"),
        (r"expected one argument", "usage.expected_one"),
        (r"expected at most one argument", "usage.expected_at_most_one"),
        (r"expected at least one argument", "usage.expected_at_least_one"),
        (r"expected (?P<count>\d+) arguments?", "usage.expected_count"),
        (r"not allowed with argument (?P<other>.+)", "usage.not_allowed_with"),
    )
)


def translated(message: str, lang: str | None) -> str:
    """argparse's ``message`` in ``lang``: as written in English, or when no pattern
    matches it.

    >>> translated("the following arguments are required: original, --config", "ja")
    '次の引数が必要です: original, --config'
    >>> translated("argument --seed: invalid int value: 'x'", "ja")
    "引数 --seed: int の値として読めません: 'x'"
    """
    if language(lang) == "en":
        return message
    for pattern, code in _PATTERNS:
        match = pattern.fullmatch(message)
        if match:
            params = match.groupdict()
            if "message" in params:
                params["message"] = translated(params["message"], lang)
            return render(code, params, lang)
    return message


def usage_error_text(error: UsageError, lang: str | None) -> str:
    """What argparse prints for ``error`` (its parser's usage line, in the parser's
    language, then ``prog: error: message``), in ``lang``."""
    line = render(
        "usage.error", {"prog": error.parser.prog, "message": translated(error.message, lang)}, lang
    )
    return f"{error.parser.format_usage()}{line}\n"


def requested_language(argv: Sequence[str], default: str) -> str:
    """The language of the line's ``--lang`` (any form argparse reads: ``--lang ja``,
    ``--lang=ja``, ``--la ja``), else ``default``: argparse refuses a line before its
    ``--lang`` has reached the command.

    >>> requested_language(["--lang", "ja", "evaluate"], "en"), requested_language([], "ja")
    ('ja', 'ja')
    >>> requested_language(["--lang", "xx"], "en"), requested_language(["--lang"], "ja")
    ('en', 'ja')
    """
    probe = UsageParser(add_help=False)
    probe.add_argument("--lang")
    try:
        asked = probe.parse_known_args(list(argv))[0].lang
    except UsageError:
        return default
    return asked if asked in ("en", "ja") else default
