from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ConsoleConfig(AppConfig):
    name = "pwscup.console"
    verbose_name = _("Organizer console")
