"""The DP round's one exception type and the renderer of its messages (English and Japanese).

Every failure of :mod:`scoring.dp` a participant or an organizer can act on is a
:class:`DPError`: ``str(error)`` is the English message of spec dp-round.md §12,
``error.code`` and ``error.params`` (JSON-serialisable) let the platform store the
failure and show it in another language with ``error.render("ja")`` or
:func:`render_dp`. The templates are the catalogue :data:`scoring.dp.messages.DP_MESSAGES`.

Examples
--------
>>> error = DPError("dp.level.not_positive", level="eps-0", epsilon="0")
>>> str(error)
"Level 'eps-0' has epsilon 0; it must be > 0"
>>> error.render("ja")
"レベル 'eps-0' の ε は 0 です。0 より大きい値にしてください"
>>> render_dp(error.code, error.params, "en") == str(error)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.dp.messages import DP_MESSAGES
from scoring.errors import Several, ValidationError
from scoring.messages import clip, is_nested, language, render_value, spaced

MAX_LISTED = 10

_WORDS = {
    "query": {"en": "query", "ja": "クエリ"},
    "release": {"en": "release", "ja": "開示"},
    "charge": {"en": "charge", "ja": "消費"},
    "charges": {"en": "charges", "ja": "消費"},
}


def row_listing(rows: Sequence[int], values: Sequence[Any]) -> dict:
    """A ``rows`` parameter: the first ten 1-based rows with their values, and the total."""
    shown = [[int(r), clip(v)] for r, v in zip(rows[:MAX_LISTED], values[:MAX_LISTED], strict=True)]
    return {"rows": shown, "total": len(rows)}


def _rows_text(value: Mapping[str, Any], lang: str) -> str:
    if lang == "ja":
        parts = "、".join(f"{r} 行目 ({v!r})" for r, v in value["rows"])
        more = f"（全 {value['total']} 行）" if value["total"] > len(value["rows"]) else ""
    else:
        parts = ", ".join(f"row {r} ({v!r})" for r, v in value["rows"])
        more = f" ({value['total']} rows in total)" if value["total"] > len(value["rows"]) else ""
    return parts + more


def render_dp(code: str, params: Mapping[str, Any] | None = None, lang: str | None = "en") -> str:
    """The message ``code`` with ``params`` in ``lang`` (``"en"`` or ``"ja"``).

    A parameter made by :func:`row_listing` reads ``row 5 ('17-'), row 9 ('')``; the
    words ``query``, ``release`` and ``charges`` are translated; a list of the library's
    message parts (:func:`scoring.validation.header_problems`) reads as that library
    renders it.
    """
    lang = language(lang)
    values = {}
    for key, value in (params or {}).items():
        if isinstance(value, Mapping) and "rows" in value:
            value = _rows_text(value, lang)
        elif isinstance(value, str) and key in ("what", "charges") and value in _WORDS:
            value = _WORDS[value][lang]
        elif isinstance(value, list) or (isinstance(value, Mapping) and "code" in value):
            # parts of the library's catalogue (``header.*``, ``expect.*``)
            nested = is_nested(value)
            value = render_value(value, lang)
            if nested:
                value = spaced(DP_MESSAGES[code][lang], key, value, lang)
        values[key] = value
    return DP_MESSAGES[code][lang].format(**values)


# A stored method label (``method_label``'s, ``check_declared``'s) that is words, not a code
# such as BR or IT14: shown in the reader's language.
_METHOD_WORDS = {
    "declared Laplace": "dp.method.declared_laplace",
    "prior (ε = 0)": "dp.method.prior",
}


def method_text(method: str, lang: str | None) -> str:
    """A method label as ``lang`` reads it (``"declared Laplace"`` → ``"申告された Laplace"``);
    a code (``BR``, ``IT14``, ``hybrid``) as it is.

    >>> method_text("declared Laplace", "ja"), method_text("IT14", "ja")
    ('申告された Laplace', 'IT14')
    """
    code = _METHOD_WORDS.get(method)
    return render_dp(code, {}, lang) if code else method


class DPError(ValidationError):
    """An invalid DP configuration, table, query, declaration or estimate, or a refusal.

    Parameters
    ----------
    code : str
        A key of :data:`~scoring.dp.messages.DP_MESSAGES`.
    **params
        JSON-serialisable values of its placeholders.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code, self.params = code, params
        Exception.__init__(self, render_dp(code, params, "en"))

    def render(self, lang: str | None) -> str:
        """The message in ``lang`` (``"ja"`` or ``"en"``)."""
        return render_dp(self.code, self.params, lang)


class DPErrors(Several, DPError):
    """Several errors of one DP configuration, found in one pass (``scoring.errors.Several``):
    a ``DPError`` to whoever catches one."""
