from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PresentationsConfig(AppConfig):
    name = "pwscup.presentations"
    verbose_name = _("Presentations")
