"""The client's argument parser in the client's language: argparse's own words of a help page
(the usage prefix, the section headings, ``-h``'s text) through its public hooks, a
``formatter_class`` and an explicit ``-h``; and the one number its options take (seconds).

The scoring library's command line does the same from its catalogue (``scoring.cli_usage``);
the client is standard library only and cannot import it, so its words are ``tr`` entries.
"""

import argparse
import re

from pwscup.client.messages import tr

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
    """argparse's formatter with its own words in the client's language."""

    def start_section(self, heading):
        words = {"positional arguments": tr("positional arguments"), "options": tr("options")}
        super().start_section(words.get(heading, heading))

    def format_help(self):
        # Swapped once laid out: argparse indents the usage's wrapped lines by its prefix.
        text = super().format_help()
        if text.startswith("usage: "):
            text = tr("usage: ") + text[len("usage: ") :]
        return text


class Parser(argparse.ArgumentParser):
    """An ``ArgumentParser`` whose help speaks the client's language; its subcommands'
    parsers are of the same class (argparse makes them of its parser's class)."""

    def __init__(self, *args, add_help=True, **kwargs):
        kwargs.setdefault("formatter_class", HelpFormatter)
        super().__init__(*args, add_help=False, **kwargs)
        if add_help:
            self.add_argument(
                "-h", "--help", action="help", help=tr("show this help message and exit")
            )
