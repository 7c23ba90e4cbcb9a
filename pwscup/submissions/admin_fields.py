"""What the kinds' admin pages of job rows share: the ``failure`` and ``uploader`` fields of
``pwscup.core.admin_base.KEPT_UPLOAD_FIELDS``, a job's message in the reader's language and
who uploaded the file."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.core.admin_base import account_display
from pwscup.submissions.messages import job_message_text


class JobFailureAdmin:
    """``failure``: the row's message in the reader's language, by its kind's own catalogue
    where the row renders its codes itself (``message_text``), else by the core's;
    ``uploader``: who uploaded the file, not linked (``account_display``)."""

    uploader = account_display("uploaded_by", _("uploaded by"))

    @admin.display(description=_("message"))
    def failure(self, obj) -> str:
        text = getattr(obj, "message_text", None)
        return job_message_text(obj) if text is None else text
