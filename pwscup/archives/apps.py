from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchivesConfig(AppConfig):
    name = "pwscup.archives"
    verbose_name = _("Archives")
