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

    @property
    def errors(self) -> list[ScoringError]:
        """The errors this one reports: itself (``Several``: each of those it holds)."""
        return [self]


class ValidationError(ScoringError):
    """An invalid submission, table or correspondence table."""


class ConfigError(ScoringError):
    """An invalid round configuration; the message names the JSON key."""


class Several:
    """Several errors of one pass, each about a key of its own (a form puts each next to
    its field, rather than one per try), mixed into an error class so that whoever catches
    that class catches them all (``ConfigErrors``, ``scoring.dp.errors.DPErrors``):
    ``errors`` in the order the checks ran; ``code`` and ``params`` are the first one's;
    ``str`` and ``render`` give every message, one per line.

    >>> both = ConfigErrors([ConfigError("a is wrong"), ConfigError("b is wrong")])
    >>> print(both)
    a is wrong
    b is wrong
    """

    def __init__(self, errors: list[ScoringError]) -> None:
        self.found = [item for error in errors for item in error.errors]
        Exception.__init__(self, "\n".join(str(error) for error in self.found))
        self.code, self.params = self.found[0].code, self.found[0].params

    @property
    def errors(self) -> list[ScoringError]:
        return list(self.found)

    def render(self, lang: str | None) -> str:
        return "\n".join(error.render(lang) for error in self.found)


class ConfigErrors(Several, ConfigError):
    """Several errors of one configuration (``Several``)."""


class ConfigChecks:
    """A configuration's independent checks run in one pass: ``run`` keeps the error a
    check raises (of the class ``caught``) and goes on, its value then ``default`` (``args``
    and ``kwargs`` are the check's); ``raise_found`` raises what was kept, one error as
    itself, several as one ``group`` (a ``Several`` of that class).

    >>> def positive(value):
    ...     if value < 1:
    ...         raise ConfigError(f"{value} is not positive")
    ...     return value
    >>> checks = ConfigChecks()
    >>> checks.run(positive, 2), checks.run(positive, 0, default=1), checks.run(positive, -1)
    (2, 1, None)
    >>> try:
    ...     checks.raise_found()
    ... except ConfigErrors as errors:
    ...     print(errors)
    0 is not positive
    -1 is not positive
    """

    def __init__(
        self, caught: type[ScoringError] = ConfigError, group: type[Several] = ConfigErrors
    ) -> None:
        self.caught, self.group = caught, group
        self.errors: list[ScoringError] = []

    def run(self, check, *args: Any, default: Any = None, **kwargs: Any) -> Any:
        try:
            return check(*args, **kwargs)
        except self.caught as error:
            self.errors.append(error)
            return default

    def raise_found(self) -> None:
        if len(self.errors) == 1:
            raise self.errors[0]
        if self.errors:
            raise self.group(self.errors)
