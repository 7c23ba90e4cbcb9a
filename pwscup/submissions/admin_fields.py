"""What the kinds' admin pages of job rows share: the ``failure`` and ``uploader`` fields of
``pwscup.core.admin_base.KEPT_UPLOAD_FIELDS``, a job's message in the reader's language and
who uploaded the file."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.core.admin_base import account_display
from pwscup.submissions.messages import job_message_text

# A two-sided kind's row of the round as its read-only admin page shows it: the freeze, the
# publication and the freeze at the release phase's close (``AutoFreezeRow``).
TWO_SIDED_ROW_FIELDS = (
    "round",
    "frozen_at",
    "results_published",
    "auto_freeze",
    "auto_freeze_refusal",
)


class JobFailureAdmin:
    """``failure``: the row's message in the reader's language, by its kind's own catalogue
    where the row renders its codes itself (``message_text``), else by the core's;
    ``uploader``: who uploaded the file, not linked (``account_display``)."""

    uploader = account_display("uploaded_by", _("uploaded by"))

    @admin.display(description=_("message"))
    def failure(self, obj) -> str:
        text = getattr(obj, "message_text", None)
        return job_message_text(obj) if text is None else text
