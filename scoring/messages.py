"""Participant-facing messages of the scoring library, in English and Japanese.

A :class:`scoring.errors.ScoringError` carries a ``code`` and JSON-serialisable
``params``; :func:`render` turns them into text in one language. The platform stores
the code and parameters of a failed job and renders them in each reader's language;
the command line renders them in the language of ``--lang`` or ``LANG``.

:data:`MESSAGES` is the one catalogue (code -> {language: template}): the modules of
:data:`CATALOGUES`, merged when this module is imported. They are data only and listed
here rather than registered by whoever imports them, so every code renders in any process
that can import :mod:`scoring.messages`, whatever else it has loaded; a stored ``seq.*``
code renders without the sequential round's code. (The DP round's codes have a catalogue
and a renderer of their own, :mod:`scoring.dp.messages` and :mod:`scoring.dp.errors`.)

Parameter values are plain text and numbers, or two structured kinds:

* a *listing* ``{"listing": KIND, "items": [[n, detail], ...], "total": N}`` — the first
  offending rows or lines (at most ten) and always their total, e.g.
  ``row 3 ('x'), row 9 ('y') (2 rows in total)``;
* a *nested message* ``{"code": CODE, "params": {...}}``, or a list of them (joined).

Echoed cell values are clipped to :data:`ECHO_LIMIT` characters when the error is
made (:func:`clip`), so a 10 MB cell never travels further than the message.

Examples
--------
>>> render("submission.row_count", {"got": 3, "expected": 4}, "ja")
'提出ファイルのデータ行は 3 行ですが、4 行必要です（元のテーブルの各行に 1 行ずつ。削除した行は空のセルだけの行として残します）。'
>>> listing = {"listing": "lines_values", "items": [[2, "x"]], "total": 1}
>>> render("answer.not_integer", {"lines": listing}, "en")
"The correspondence table must hold one integer (a row number) per line; not an integer at line 2 ('x') (1 line in total)."
"""

from __future__ import annotations

import json
import os
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from scoring.catalogues.answers import ANSWER_MESSAGES
from scoring.catalogues.cli_help import HELP_MESSAGES
from scoring.catalogues.config2015 import CONFIG_MESSAGES
from scoring.catalogues.core import CORE_MESSAGES
from scoring.catalogues.core import TERMS as CORE_TERMS
from scoring.catalogues.expected import EXPECTED_MESSAGES
from scoring.catalogues.formula import FORMULA_MESSAGES
from scoring.catalogues.kit_help import KIT_HELP_MESSAGES
from scoring.catalogues.scorer import SCORER_MESSAGES, SCORER_TERMS
from scoring.catalogues.sequential import SEQ_MESSAGES
from scoring.catalogues.usage import USAGE_MESSAGES

LANGUAGES = ("en", "ja")
ECHO_LIMIT = 80
MAX_LISTED = 10
ELLIPSIS = "…"

# The parts of the catalogue: the library's own codes, a correspondence table's ``answer.*``,
# the 2015 game's round configuration ``config.*``, the sequential round's ``seq.*``, then
# the organizer's scoring program's ``scorer.*``, a round total's formula ``formula.*``, what a
# configuration's value should have been, ``expect.*``, argparse's refusals of a command line,
# ``usage.*``, and the command line's help, ``help.*`` (the kit's list of methods and attacks in
# a part of its own).
CATALOGUES: tuple[Mapping[str, dict[str, str]], ...] = (
    CORE_MESSAGES,
    ANSWER_MESSAGES,
    CONFIG_MESSAGES,
    SEQ_MESSAGES,
    SCORER_MESSAGES,
    FORMULA_MESSAGES,
    EXPECTED_MESSAGES,
    USAGE_MESSAGES,
    HELP_MESSAGES,
    KIT_HELP_MESSAGES,
)


def _merged(catalogues: Iterable[Mapping[str, dict[str, str]]]) -> dict[str, dict[str, str]]:
    """One code -> templates dict; a code in two parts is a mistake, not an override."""
    merged: dict[str, dict[str, str]] = {}
    for catalogue in catalogues:
        twice = merged.keys() & catalogue.keys()
        if twice:
            raise ValueError(f"message codes in two catalogues: {sorted(twice)}")
        merged.update(catalogue)
    return merged


# code -> {language: template}; placeholders are str.format fields of ``params``.
MESSAGES: dict[str, dict[str, str]] = _merged(CATALOGUES)
# Descriptions of files passed as ``name``/``what`` -> {language: text}.
TERMS: dict[str, dict[str, str]] = {**CORE_TERMS, **SCORER_TERMS}

# Listing kinds: how one item ``[n, detail]`` reads, and the unit of the total.
_ITEMS = {
    "rows": {"en": "row {n}", "ja": "{n} 行目"},
    "rows_values": {"en": "row {n} ({detail})", "ja": "{n} 行目 ({detail})"},
    "rows_fields": {"en": "row {n} has {detail}", "ja": "{n} 行目のフィールド数 {detail}"},
    "lines_values": {"en": "line {n} ({detail})", "ja": "{n} 行目 ({detail})"},
    "lines_fields": {
        "en": "line {n} has {detail} ({value})",
        "ja": "{n} 行目のフィールド数 {detail} ({value})",
    },
}
_TOTALS = {
    "rows": {
        "en": ("({total} row in total)", "({total} rows in total)"),
        "ja": "（計 {total} 行）",
    },
    "lines": {
        "en": ("({total} line in total)", "({total} lines in total)"),
        "ja": "（計 {total} 行）",
    },
}
_SEPARATORS = {"en": ", ", "ja": "、"}
_PART_SEPARATORS = {"en": "; ", "ja": "；"}


def clip(value: Any, limit: int = ECHO_LIMIT) -> str:
    """A cell value as text of at most ``limit`` characters (an ellipsis marks a cut).

    Examples
    --------
    >>> clip("abc"), len(clip("x" * 10_000_000))
    ('abc', 80)
    """
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def quoted(values: Iterable[Any]) -> str:
    """Clipped values, each quoted, joined by commas: ``'a', 'b'``."""
    return ", ".join(repr(clip(value)) for value in values)


def quoted_value(value: Any) -> str:
    """A configuration's value quoted for a message, clipped: ``'Bob'`` for text, JSON for
    any other value (``1``, ``[1, 2]``, ``null``).

    >>> quoted_value("Bob"), quoted_value(2.5), quoted_value([1, 1]), quoted_value(None)
    ("'Bob'", '2.5', '[1, 1]', 'null')
    """
    if isinstance(value, str):
        return repr(clip(value))
    try:
        return clip(json.dumps(value, ensure_ascii=False))
    except (TypeError, ValueError):
        return clip(repr(value))


def listing(kind: str, numbers: Sequence[int], details: Sequence[Any] | None = None, **extra):
    """A listing parameter: the first ten ``numbers`` (1-based) with details, and the total.

    ``details`` are already clipped text (or counts) for the first ten numbers; ``extra``
    holds per-item lists of further fields (e.g. ``value`` for ``lines_fields``).
    """
    numbers = [int(n) for n in numbers]
    shown = numbers[:MAX_LISTED]
    items = []
    for k, n in enumerate(shown):
        item: list[Any] = [n, None if details is None else details[k]]
        if extra:
            item.append({key: values[k] for key, values in extra.items()})
        items.append(item)
    return {"listing": kind, "items": items, "total": len(numbers)}


def language(lang: str | None) -> str:
    """``"ja"`` for Japanese locales (``ja``, ``ja-JP``, ``ja_JP.UTF-8``), else ``"en"``."""
    return "ja" if (lang or "").lower().replace("_", "-").split("-")[0] == "ja" else "en"


# The variables naming the reader's language, first set wins: the participants' client's own
# (``PWSCUP_LANG``, so that a student who set it for ``pwscup`` gets the kit in the same
# language), then the POSIX locale's, in POSIX's order.
LANGUAGE_VARIABLES = ("PWSCUP_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def environment_language(environ=os.environ) -> str:
    """``"ja"`` when the first set of ``PWSCUP_LANG``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``
    is Japanese, else ``"en"``.

    >>> environment_language({"PWSCUP_LANG": "ja", "LANG": "C.UTF-8"})
    'ja'
    >>> environment_language({"LC_ALL": "en_US.UTF-8", "LANG": "ja_JP.UTF-8"})
    'en'
    >>> environment_language({})
    'en'
    """
    for variable in LANGUAGE_VARIABLES:
        if environ.get(variable, "").strip():
            return language(environ[variable].strip())
    return "en"


def placeholders(template: str) -> set[str]:
    """The names of the ``{fields}`` of a template."""
    return {field for _, field, _, _ in string.Formatter().parse(template) if field}


def render(code: str, params: Mapping[str, Any] | None = None, lang: str | None = "en") -> str:
    """The message ``code`` with ``params`` in ``lang`` (English for unknown languages).

    Raises
    ------
    KeyError
        For an unknown code.
    """
    lang = language(lang)
    params = params or {}
    template = MESSAGES[code][lang]
    values = {key: _value(value, lang) for key, value in params.items()}
    for key, value in params.items():
        if is_nested(value):
            values[key] = spaced(template, key, values[key], lang)
    text = template.format(**values)
    if lang == "en" and any(_starts_with_term(text, term) for term in TERMS):
        text = text[0].upper() + text[1:]
    return text


def _starts_with_term(text: str, term: str) -> bool:
    return text.startswith(term) and text[len(term) : len(term) + 1] in (" ", ":")


def expect(code: str, **params: Any) -> dict:
    """What a value should have been, as a nested message (``expect.<code>`` with
    ``params``): the ``expected`` parameter of a ``bad_value`` message, in the reader's
    language when rendered.

    >>> render_value(expect("integer_range", low=1, high=10), "ja")
    '1 以上 10 以下の整数'
    """
    return {"code": f"expect.{code}", "params": params}


def render_value(value: Any, lang: str | None = "en") -> Any:
    """A parameter value as :func:`render` puts it in a message in ``lang``: a listing or
    nested message(s) as text, a term translated, anything else as it is. For another
    catalogue's renderer whose messages hold this catalogue's parts (``header.*``)."""
    return _value(value, language(lang))


def _value(value: Any, lang: str) -> Any:
    if isinstance(value, Mapping) and "listing" in value:
        return _listing_text(value, lang)
    if isinstance(value, Mapping) and "code" in value:
        return _nested(value, lang)
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        return _PART_SEPARATORS[lang].join(_nested(v, lang) for v in value)
    if isinstance(value, str) and value in TERMS:
        return TERMS[value].get(lang, value)
    return value


def is_nested(value: Any) -> bool:
    """Whether a parameter value is a nested message or a list of them."""
    if isinstance(value, Mapping):
        return "code" in value
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


_JA_WORD = re.compile(r"[\u3041-\u30ff\u3400-\u9fff]")  # kana, kanji (not 、。（）)
_LATIN_START = re.compile(r"[0-9A-Za-z'\"{\[(<+\-−]")
_LATIN_END = re.compile(r"[0-9A-Za-z'\"}\])>]")


def spaced(template: str, key: str, text: Any, lang: str) -> Any:
    """A nested message's ``text`` as it goes in ``template`` at ``{key}``: in Japanese, set
    off by a space from a kana or kanji it would touch with a Latin letter, a digit or a
    quote (``'n_challenge' は 2 × n_train（4000）以下の 4 の倍数``, ``true または false で``);
    the template's author cannot know which nested message comes.

    >>> spaced("'{key}' は{expected}でなければなりません", "expected", "true または false", "ja")
    ' true または false '
    >>> spaced("'{key}' は{expected}でなければなりません", "expected", "正の数", "ja")
    '正の数'
    """
    where = template.find("{" + key + "}")
    if lang != "ja" or where < 0 or not isinstance(text, str) or not text:
        return text
    before, after = template[where - 1 : where], template[where + len(key) + 2 :][:1]
    if before and _JA_WORD.match(before) and _LATIN_START.match(text[0]):
        text = " " + text
    if after and _JA_WORD.match(after) and _LATIN_END.match(text[-1]):
        text += " "
    return text


def _nested(value: Mapping[str, Any], lang: str) -> str:
    params = {key: _value(v, lang) for key, v in (value.get("params") or {}).items()}
    return MESSAGES[value["code"]][lang].format(**params)


def _listing_text(value: Mapping[str, Any], lang: str) -> str:
    kind = value["listing"]
    item_template = _ITEMS[kind][lang]
    parts = []
    for item in value["items"]:
        n, detail = item[0], item[1]
        extra = item[2] if len(item) > 2 else {}
        if kind.endswith("_fields"):
            detail = f"{detail} field" + "s" * (detail != 1) if lang == "en" else str(detail)
        else:
            detail = _detail(detail)
        parts.append(item_template.format(n=n, detail=detail, **_quoted_extra(extra)))
    total = int(value["total"])
    unit = kind.split("_")[0]
    totals = _TOTALS[unit][lang]
    suffix = (totals[0] if total == 1 else totals[1]) if lang == "en" else totals
    return _SEPARATORS[lang].join(parts) + " " * (lang == "en") + suffix.format(total=total)


def _detail(detail: Any) -> str:
    """A listing detail: a count as is, one value or several values quoted."""
    if isinstance(detail, int):
        return str(detail)
    if isinstance(detail, list):
        return quoted(detail)
    return repr(clip(detail))


def _quoted_extra(extra: Mapping[str, Any]) -> dict[str, str]:
    return {key: repr(clip(value)) for key, value in extra.items()}
