"""Why a job failed, stored language-neutrally and shown in the reader's language.

A failure is a code and its parameters (:class:`JobMessage`). Codes of the scoring
library (validation of a submission or a correspondence table) are rendered by its own
catalogue, :func:`scoring.messages.render`; the platform's codes (``job.*``: a crash of
the scorer, the time limit, attempts used up) by Django's gettext. Both happen while a
page is rendered, in the language of that request, not when the worker stored the
failure. The English text is stored too (``message``), for the admin's search and for
logs; a row stored before codes existed has only that text, and is shown as it is.
"""

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import ClassVar

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import scoring
from scoring import messages as scoring_messages

PLATFORM_MESSAGES = {
    "job.attempts_exhausted": _(
        "Scoring was interrupted %(n)s times (worker lost or time limit); "
        "the organizers can rescore it."
    ),
    "job.storage_retry": _(
        "The platform's file storage did not answer while this was being scored; it will be "
        "scored again in a moment."
    ),
    "job.storage_exhausted": _(
        "The platform's file storage did not answer the %(n)s times this was being scored; "
        "the organizers can rescore it."
    ),
    "job.time_limit": _("Scoring exceeded the time limit of %(seconds)s seconds."),
    "job.memory_limit": _(
        "Scoring needed more memory than the limit of %(megabytes)s MiB; the file is too "
        "large or too unusual for this round."
    ),
    "job.internal_error": _(
        "The scorer failed with an internal error (%(kind)s); the organizers can rescore it."
    ),
    "job.no_sample": _("No sample has been drawn for this team yet."),
    "job.no_program": _(
        "The round has no scoring program ready yet; the organizers rescore the uploads once it is."
    ),
    "job.no_hidden_data": _(
        "The round's hidden data (%(packs)s) has not been uploaded yet; the organizers rescore "
        "the uploads once it is."
    ),
}


@dataclass(frozen=True)
class JobMessage:
    """A failure reason: ``code`` and ``params``, or only ``text`` for a plain message."""

    code: str = ""
    params: dict = field(default_factory=dict)
    text: str = ""

    @classmethod
    def platform(cls, code: str, **params) -> "JobMessage":
        with translation.override("en"):
            text = gettext(PLATFORM_MESSAGES[code]) % params
        return cls(code=code, params=params, text=text)

    @classmethod
    def from_scoring_error(cls, error: scoring.ScoringError) -> "JobMessage":
        # Stored in a JSONField: a stray NumPy scalar must not make the job unsaveable.
        params = json.loads(json.dumps(error.params, default=_plain))
        return cls(code=error.code, params=params, text=str(error))


def _plain(value):
    return value.item() if hasattr(value, "item") else str(value)


class JobFailure(Exception):
    """A reason to fail a job that the platform itself finds (e.g. no sample drawn yet)."""

    def __init__(self, code: str, **params) -> None:
        self.message = JobMessage.platform(code, **params)
        super().__init__(self.message.text)


def message_render(*, code: str, params: dict | None, text: str) -> str:
    """The message in the active language (the request's); ``text`` when it has no code."""
    params = params or {}
    if code in PLATFORM_MESSAGES:
        return gettext(PLATFORM_MESSAGES[code]) % params
    if code in scoring_messages.MESSAGES:
        return scoring_messages.render(code, params, translation.get_language())
    return text


def job_message_text(job) -> str:
    """The failure message of a job row (a ``JobState``) in the active language."""
    return message_render(code=job.message_code, params=job.message_params, text=job.message)


class CatalogueMessages:
    """A job row (a ``JobState``) whose failure may be a code of its kind's own catalogue
    (``catalogue``: code -> templates, rendered by ``render_code(code, params, lang)``, as the
    DP and synthetic rounds' are), shown in the reader's language by it; any other code (the
    file rules every kind shares, the platform's ``job.*``) by the core's."""

    catalogue: ClassVar[Mapping]
    render_code: ClassVar[Callable]  # a ``staticmethod``

    @property
    def message_text(self) -> str:
        return self.message_in(translation.get_language())

    def message_in(self, lang: str | None) -> str:
        if self.message_code in self.catalogue:
            return self.render_code(self.message_code, self.message_params, lang)
        with translation.override(lang):
            return job_message_text(self)


def upload_received_message(upload) -> str:
    """The notice after an upload (round page, its JSON answer, the API and so the CLI),
    in the active language; the upload is named by its ``label`` (the team's number). An
    upload its kind refused as it was kept (FAILED at once) says why."""
    if upload.status == upload.Status.FAILED:
        return gettext("Upload received (%(upload)s) and refused: %(reason)s") % {
            "upload": upload.label,
            "reason": job_message_text(upload),
        }
    if upload.dispatch.sent is False:
        # Stored as QUEUED; the reaper sends the job once the broker is back.
        notice = gettext(
            "Upload received (%(upload)s) and queued; scoring starts when the scorer is back."
        )
    else:
        notice = gettext("Upload received (%(upload)s); it is being scored.")
    return notice % {"upload": upload.label}
