from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class KindsConfig(AppConfig):
    name = "pwscup.kinds"
    verbose_name = _("Round kinds")

    def ready(self):
        from pwscup.kinds.pwscup2015 import Pwscup2015Kind
        from pwscup.kinds.registry import register

        register(Pwscup2015Kind())
