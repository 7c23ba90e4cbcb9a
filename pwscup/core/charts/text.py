"""Text measured before the browser draws it: a chart places its labels and sizes its margins
on the server, so it estimates how wide a text will be.

Widths come from terminal display columns (wcwidth: a CJK character takes two, a Latin one
one) times a share of the font size a little above the average Latin glyph, so that the
estimate errs on the wide side: a label that fits by the estimate fits on screen.
"""

from __future__ import annotations

import wcwidth

EM_PER_COLUMN = 0.62


def text_width(text: str, *, font_size: float, bold: bool = False) -> float:
    """Estimated width in px of ``text`` drawn in a sans-serif font of ``font_size`` px.

    >>> text_width("abcd", font_size=11), text_width("攻撃", font_size=11)
    (27.28, 27.28)
    """
    columns = wcwidth.width(text, control_codes="ignore")
    return round(columns * EM_PER_COLUMN * font_size * (1.08 if bold else 1), 2)


def shorten(text: str, columns: int) -> str:
    """``text`` cut to at most ``columns`` display columns, with "…" when cut.

    >>> shorten("Team A", 12), shorten("組み込み攻撃キット", 7)
    ('Team A', '組み込…')
    """
    if wcwidth.width(text, control_codes="ignore") <= columns:
        return text
    return wcwidth.clip(text, 0, columns - 1, control_codes="ignore").rstrip() + "…"


def fit(text: str, *, width: float, font_size: float, bold: bool = False) -> str:
    """``text`` shortened (with "…") until its estimated width is at most ``width`` px.

    >>> fit("a rather long axis title", width=60, font_size=10)
    'a rather…'
    """
    columns = wcwidth.width(text, control_codes="ignore")
    shown = text
    while columns > 1 and text_width(shown, font_size=font_size, bold=bold) > width:
        columns -= 1
        shown = shorten(text, columns)
    return shown


def wrap(text: str, *, width: float, font_size: float, max_lines: int = 2) -> list[str]:
    """``text`` in at most ``max_lines`` lines of at most ``width`` px: broken at spaces, or
    anywhere in a run without spaces (Japanese); the last line shortened with "…" if needed.

    >>> wrap("gap between the columns' correlations", width=140, font_size=10)
    ['gap between the', "columns' correlations"]
    """
    lines: list[str] = []
    rest = text.strip()
    while rest and len(lines) < max_lines - 1:
        if text_width(rest, font_size=font_size) <= width:
            break
        cut = _break_at(rest, width=width, font_size=font_size)
        lines.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        lines.append(fit(rest, width=width, font_size=font_size))
    return lines


def _break_at(text: str, *, width: float, font_size: float) -> int:
    """Where to end the first line: the last space that keeps it within ``width`` and is not
    inside parentheses (``(U4 corMAE)`` stays whole), else the last character that does."""
    fits = 1
    while fits < len(text) and text_width(text[: fits + 1], font_size=font_size) <= width:
        fits += 1
    if fits >= len(text):
        return fits
    depth, space = 0, -1
    for index, char in enumerate(text[: fits + 1]):
        depth += (char in "(（") - (char in ")）")
        if char == " " and depth == 0 and index > 0:
            space = index
    return space if space > 0 else fits
