from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SubmissionsConfig(AppConfig):
    name = "pwscup.submissions"
    verbose_name = _("Submissions")
