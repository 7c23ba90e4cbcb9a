from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "pwscup.competitions"
    verbose_name = _("Competitions")
