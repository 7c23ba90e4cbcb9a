"""What the kinds' admin pages of job rows share: the ``failure`` field of
``pwscup.core.admin_base.KEPT_UPLOAD_FIELDS``, a job's message in the reader's language."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.submissions.messages import job_message_text


class JobFailureAdmin:
    """``failure``: the row's message in the reader's language, by its kind's own catalogue
    where the row renders its codes itself (``message_text``), else by the core's."""

    @admin.display(description=_("message"))
    def failure(self, obj) -> str:
        text = getattr(obj, "message_text", None)
        return job_message_text(obj) if text is None else text
