"""Exceptions the services raise for the views to show."""

import datetime as dt
import math

from django.core.exceptions import ValidationError
from django.utils import timezone
from django.utils.translation import get_language

from scoring.messages import MESSAGES, render


class Refused(Exception):
    """The server refuses an action (deadline, quota, permission, size); nothing is stored.

    ``code`` names the kind of refusal when the status alone does not (e.g. a daily quota
    against a total one); ``resets_at`` is when the same action will be accepted again (a
    daily quota's reset), ``None`` when waiting does not help.
    """

    def __init__(
        self,
        message: str,
        *,
        status: int = 400,
        code: str | None = None,
        resets_at: dt.datetime | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.resets_at = resets_at

    def retry_after(self, now: dt.datetime | None = None) -> int | None:
        """Whole seconds until ``resets_at`` (at least 1), or ``None`` without one."""
        if self.resets_at is None:
            return None
        seconds = (self.resets_at - (now or timezone.now())).total_seconds()
        return max(1, math.ceil(seconds))

    def retry_details(self, now: dt.datetime | None = None) -> tuple[dict, dict]:
        """``(headers, body fields)`` saying when to try again — ``Retry-After`` and
        ``{"retry_after": seconds, "resets_at": ISO time}`` — or two empty dicts. The one
        place the API and the upload page compute them."""
        seconds = self.retry_after(now)
        if seconds is None:
            return {}, {}
        return (
            {"Retry-After": str(seconds)},
            {"retry_after": seconds, "resets_at": self.resets_at.isoformat()},
        )


def scoring_validation_error(error, *, message: str, field: str | None = None):
    """A Django ``ValidationError`` carrying a ``scoring`` error's ``message`` (already
    rendered in the reader's language) with its ``code`` and ``params``, so that a form can
    put it next to the field it is about (a DP level's ε, a sequential round's ``m``)
    rather than above the form. ``field``: the key of the error (``{field: error}``).

    The message is escaped for Django's ``%``-formatting, which ``params`` turns on: the
    text reads the same (``"50%"`` stays ``"50%"``)."""
    params = dict(getattr(error, "params", {}) or {})
    inner = ValidationError(
        message.replace("%", "%%") if params else message,
        code=getattr(error, "code", "") or None,
        params=params or None,
    )
    return ValidationError({field: inner}) if field else inner


def scoring_text(error) -> str:
    """A ``scoring`` error's message in the reader's language (any other exception: its
    text): what every page, form and answer shows of it, never its English ``str``."""
    return error.render(get_language()) if hasattr(error, "render") else str(error)


def scoring_text_naming(item, *, key: str) -> str | None:
    """The message of ``item`` (a ``ValidationError`` made by ``scoring_validation_error``)
    in the reader's language with its ``params["key"]`` (a configuration key) replaced by
    ``key`` (the words the reader sees: a field's label); ``None`` when it has no such
    parameter or no catalogue message to render again."""
    params, code = dict(getattr(item, "params", None) or {}), getattr(item, "code", None)
    if "key" not in params or not code or code not in MESSAGES:
        return None
    return render(code, {**params, "key": key}, get_language())


def _reported(error) -> list:
    """The errors ``error`` reports: those a ``scoring`` error holds (a configuration's
    ``Several``: each found in one pass; any other: itself), or the exception itself."""
    return getattr(error, "errors", None) or [error]


def scoring_validation_errors(error, *, field: str | None = None) -> ValidationError:
    """Every error a ``scoring`` error reports (a configuration's ``Several`` holds
    several, found in one pass), each as ``scoring_validation_error`` gives it, in the
    reader's language, under ``field`` when given: a form puts each next to the field, row
    or level it is about."""
    items = [
        scoring_validation_error(item, message=scoring_text(item)) for item in _reported(error)
    ]
    return ValidationError({field: items} if field else items)


def scoring_errors_by(error, place) -> ValidationError:
    """Every error a ``scoring`` error reports, in the reader's language, keyed by where
    ``place(item)`` says it lies (a bundle's settings path: ``config.m``,
    ``config.levels[1].epsilon``)."""
    found: dict[str, list[str]] = {}
    for item in _reported(error):
        found.setdefault(place(item), []).append(scoring_text(item))
    return ValidationError(found)


def scoring_form_error(field: str, error) -> ValidationError:
    """A ``scoring`` error (or any exception) as a form's error on ``field``, in the reader's
    language: the one conversion every kind's services use for a configuration or a table."""
    return ValidationError({field: scoring_text(error)})
