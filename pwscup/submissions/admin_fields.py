"""What the kinds' admin pages of kept uploads share: the ``failure`` of
``pwscup.core.admin_base.KEPT_UPLOAD_FIELDS``, the job's message in the reader's language."""

from django.contrib import admin
from django.utils.translation import gettext_lazy as _

from pwscup.submissions.messages import job_message_text


class JobMessageAdmin:
    """Listed before the admin class: its ``failure`` field reads ``job_message_text``."""

    @admin.display(description=_("message"))
    def failure(self, obj) -> str:
        return job_message_text(obj)
