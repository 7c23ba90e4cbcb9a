"""Why an upload of slides was rejected: a code and its parameters, stored with the row and
rendered in the reader's language (like ``pwscup.submissions.messages``)."""

from django.utils import translation
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from pwscup.submissions.messages import JobFailure, JobMessage, job_message_text

SLIDES_MESSAGES = {
    "slides.not_pdf": _(
        "%(file)s is not a PDF: its first %(bytes)s bytes hold no PDF header (%%PDF-). "
        "Export your slides as PDF and upload that file."
    ),
    "slides.unreadable": _(
        "%(file)s could not be read as a PDF (%(reason)s). Export it again as PDF "
        "(PDF/A or “standard” quality) and upload that file."
    ),
    "slides.page_too_large": _(
        "The first page of %(file)s is %(width)s × %(height)s points; a page may be at most "
        "%(limit)s points on a side. Export your slides with a usual page size (such as "
        "16:9 or A4)."
    ),
    "slides.render_timeout": _(
        "The first page of %(file)s took longer than %(seconds)s seconds to render. Upload a "
        "lighter PDF (fewer or smaller images)."
    ),
}


def slides_job_message(code: str, **params) -> JobMessage:
    with translation.override("en"):
        text = gettext(SLIDES_MESSAGES[code]) % params
    return JobMessage(code=code, params=params, text=text)


class SlidesRejected(JobFailure):
    """The worker rejects the uploaded file: the team's to fix."""

    def __init__(self, code: str, **params) -> None:
        self.message = slides_job_message(code, **params)
        Exception.__init__(self, self.message.text)


def slides_message_text(slides) -> str:
    """The upload's failure message in the active language."""
    if slides.message_code in SLIDES_MESSAGES:
        return gettext(SLIDES_MESSAGES[slides.message_code]) % (slides.message_params or {})
    return job_message_text(slides)
