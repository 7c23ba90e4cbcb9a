"""Exception types of the scoring engine.

Every failure a participant or an organiser can act on is one of these; ``str(error)``
is the message shown to them, in English. A validation error also carries a ``code``
and JSON-serialisable ``params`` (see :mod:`scoring.messages`), so that the same
failure can be shown in another language: ``error.render("ja")``.

Examples
--------
>>> error = ValidationError("submission.row_count", got=3, expected=4)
>>> str(error).startswith("The submission has 3 data rows")
True
>>> error.code, error.params
('submission.row_count', {'got': 3, 'expected': 4})
>>> error.render("ja")[:27]
'提出ファイルのデータ行は 3 行ですが、4 行必要です'
"""

from __future__ import annotations

from typing import Any

from scoring.messages import MESSAGES, render


class ScoringError(Exception):
    """Base class; ``str(error)`` is the participant-facing message.

    Parameters
    ----------
    code_or_text : str
        A code of :data:`scoring.messages.MESSAGES` (then ``params`` fill its
        placeholders), or a plain English message, which has no code (``code == ""``).
    """

    def __init__(self, code_or_text: str, /, **params: Any) -> None:
        if code_or_text in MESSAGES:
            self.code, self.params = code_or_text, params
            text = render(code_or_text, params, "en")
        else:
            self.code, self.params = "", {}
            text = code_or_text
        super().__init__(text)

    def render(self, lang: str | None) -> str:
        """The message in ``lang`` (``"ja"`` or ``"en"``); a plain message is returned as is."""
        return render(self.code, self.params, lang) if self.code else str(self)


class ValidationError(ScoringError):
    """An invalid submission, table or correspondence table."""


class ConfigError(ScoringError):
    """An invalid round configuration; the message names the JSON key."""
