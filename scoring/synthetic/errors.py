"""The synthetic round's one exception type and the renderer of its messages.

Every failure of :mod:`scoring.synthetic` that a participant or an organizer can act on
is a :class:`SynthError`: ``str(error)`` is the English message, ``error.code`` and
``error.params`` (JSON-serialisable) let the platform store it and show it in another
language with ``error.render("ja")``. The templates are
:data:`scoring.synthetic.messages.SYN_MESSAGES`.

Examples
--------
>>> error = SynthError("syn.release.domain", column="sex", domain="'Female', 'Male'",
...                    rows=row_listing([3], ["F"]))
>>> str(error)
"Column 'sex' takes the original table's values only ('Female', 'Male'); not one of them at row 3 ('F')"
>>> error.render("ja")
"列 'sex' には元のテーブルにある値（'Female', 'Male'）だけが使えます。それ以外の値があります: 3 行目 ('F')"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scoring.errors import Several, ValidationError
from scoring.messages import clip, is_nested, language, render_value, spaced
from scoring.synthetic.messages import ORIGINAL_TABLE, SYN_MESSAGES, SYN_TERMS

MAX_LISTED = 10


def row_listing(rows: Sequence[int], values: Sequence[Any]) -> dict:
    """A ``rows`` parameter: the first ten 1-based data rows with their values, and the total."""
    shown = [[int(r), clip(v)] for r, v in zip(rows[:MAX_LISTED], values[:MAX_LISTED], strict=True)]
    return {"rows": shown, "total": len(rows)}


def _rows_text(value: Mapping[str, Any], lang: str) -> str:
    more = value["total"] > len(value["rows"])
    if lang == "ja":
        parts = "、".join(f"{r} 行目 ({v!r})" for r, v in value["rows"])
        return parts + (f"（全 {value['total']} 行）" if more else "")
    parts = ", ".join(f"row {r} ({v!r})" for r, v in value["rows"])
    return parts + (f" ({value['total']} rows in total)" if more else "")


def render_synth(
    code: str, params: Mapping[str, Any] | None = None, lang: str | None = "en"
) -> str:
    """The message ``code`` with ``params`` in ``lang`` (``"en"`` or ``"ja"``)."""
    lang = language(lang)
    # ``table``: which table a check names (a message stored before it had one: the original).
    values = {"table": ORIGINAL_TABLE, **(params or {})}
    for key, value in values.items():
        if isinstance(value, str) and value in SYN_TERMS:
            values[key] = SYN_TERMS[value][lang]
        elif isinstance(value, Mapping) and "rows" in value:
            values[key] = _rows_text(value, lang)
        elif is_nested(value):  # the catalogue's ``expect.*``, ``header.*`` parts
            values[key] = spaced(SYN_MESSAGES[code][lang], key, render_value(value, lang), lang)
    template = SYN_MESSAGES[code][lang]
    if template.startswith("{table}"):  # "The population has …"
        values["table"] = values["table"][:1].upper() + values["table"][1:]
    return template.format(**values)


class SynthError(ValidationError):
    """An invalid configuration, release or attack of the synthetic round.

    Parameters
    ----------
    code : str
        A key of :data:`~scoring.synthetic.messages.SYN_MESSAGES`.
    **params
        JSON-serialisable values of its placeholders.
    """

    def __init__(self, code: str, /, **params: Any) -> None:
        self.code, self.params = code, params
        Exception.__init__(self, render_synth(code, params, "en"))

    def render(self, lang: str | None) -> str:
        """The message in ``lang`` (``"ja"`` or ``"en"``)."""
        return render_synth(self.code, self.params, lang)


class SynthErrors(Several, SynthError):
    """Several errors of one synthetic round's settings, found in one pass
    (``scoring.errors.Several``): a ``SynthError`` to whoever catches one."""
