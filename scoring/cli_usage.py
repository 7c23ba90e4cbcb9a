"""argparse's own refusals of a command line (a missing argument, an invalid choice or
value, an unknown option) in the language of ``--lang`` or ``LANG``.

argparse prints them itself, in English, while it reads the line: before ``--lang`` is
known to the command. The parsers of ``python -m scoring`` are :class:`UsageParser`\\ s,
whose ``error`` (the method argparse documents for reporting a usage error, overridden
here) raises :class:`UsageError` rather than printing and exiting; ``main`` then prints
:func:`usage_error_text` in the language asked for (:func:`requested_language`, read
from the line as typed). argparse's messages are its English text (the ``usage.*``
catalogue holds each as written by Python 3.11 to 3.13): a message is matched to its code
and parameters and rendered in Japanese; one no pattern matches (a wording of another
Python version, a command's own ``parser.error``, a value's own type error) stays as
argparse wrote it. In English the output is argparse's own, character for character.

Examples
--------
>>> parser = UsageParser(prog="demo")
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
import re
from collections.abc import Sequence

from scoring.messages import language, render


class UsageError(Exception):
    """argparse refused the command line: ``message`` (argparse's English), ``parser`` the
    (sub)command's parser whose usage line goes with it."""

    def __init__(self, parser: argparse.ArgumentParser, message: str) -> None:
        super().__init__(message)
        self.parser, self.message = parser, message


class UsageParser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose usage errors are raised (:class:`UsageError`), for the
    caller to say in its language. Subcommands' parsers are of the same class (argparse
    makes them of its parser's class)."""

    def error(self, message: str):
        raise UsageError(self, message)


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
    """What argparse prints for ``error`` (its parser's usage line, then ``prog: error:
    message``), in ``lang``."""
    usage = error.parser.format_usage()
    english_prefix = render("usage.prefix", {}, "en")
    if usage.startswith(english_prefix):
        usage = render("usage.prefix", {}, lang) + usage[len(english_prefix) :]
    line = render(
        "usage.error", {"prog": error.parser.prog, "message": translated(error.message, lang)}, lang
    )
    return f"{usage}{line}\n"


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
