"""Building the sequential-release round's messages (spec ``sequential-round.md``).

The ``seq.*`` codes and their English and Japanese templates are
:data:`scoring.catalogues.sequential.SEQ_MESSAGES`, part of the one catalogue of
:func:`scoring.messages.render`; a :class:`scoring.errors.ValidationError` or
:class:`~scoring.errors.ConfigError` raised with one of them carries a code and parameters
and renders in either language (``error.render("ja")``), exactly like the other messages of
the library. This module holds the helpers that fill them: quoted values (:func:`q`), one
offence (:func:`issue`) and, since a release may have many offending rows, one error
listing the first ten and the total (:func:`issues_error`; :func:`raise_issues` raises it
with the total a check counted).

Examples
--------
>>> error = issues_error([{"code": "seq.row.pid_unknown", "params": {"release": 2, "row": 4,
...     "pid": "'Zoe'"}}])
>>> str(error)
"release 2, row 4: pid 'Zoe' is not in the master table"
>>> print(error.render("ja"))
公開データ 2 の 4 行目: pid 'Zoe' はマスター表にありません。
"""

from __future__ import annotations

import ast
from typing import Any

from scoring.catalogues.sequential import SEQ_MESSAGES
from scoring.errors import ValidationError
from scoring.messages import MAX_LISTED, quoted_value

__all__ = ["SEQ_MESSAGES", "issue", "issues_error", "q", "raise_issues", "unquoted"]


# A value quoted for a message, clipped: ``'Bob'``; JSON for other values (``1``, ``null``).
q = quoted_value


def unquoted(text: Any) -> str:
    """A value as :func:`q` quoted it, bare (``"'m'"`` → ``m``, ``"1"`` → ``1``; ``None`` →
    ``""``): what a form or a bundle names when it points at the value a message is about.

    >>> unquoted(q("Age")), unquoted(q(3)), unquoted(None), unquoted("not quoted")
    ('Age', '3', '', 'not quoted')
    """
    if text is None:
        return ""
    try:
        value = ast.literal_eval(str(text))
    except (ValueError, SyntaxError):
        return str(text)
    return str(value)


def issue(code: str, **params: Any) -> dict:
    """One offence as a nested message ``{"code": ..., "params": ...}``."""
    return {"code": code, "params": params}


def issues_error(items: list[dict]) -> ValidationError:
    """One :class:`ValidationError` listing the first ten ``items`` and, past one, the total."""
    shown = items[:MAX_LISTED]
    if len(items) == 1:
        return ValidationError("seq.issues", items=shown)
    return ValidationError("seq.issues_more", items=shown, total=len(items))


def raise_issues(items: list[dict], total: int) -> None:
    """Raise one error listing the first ten ``items`` of ``total`` offences; nothing if none.

    ``total`` counts every offence a check found, ``items`` those it listed.
    """
    if items:
        error = issues_error(items)
        if total > len(items) or (total > 1 and len(items) == 1):
            error = ValidationError(
                "seq.issues_more", items=items[:10], total=max(total, len(items))
            )
        raise error
