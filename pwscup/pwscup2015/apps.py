from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class Pwscup2015Config(KindApp, AppConfig):
    name = "pwscup.pwscup2015"
    label = "pwscup2015"
    verbose_name = _("Anonymize-then-attack rounds (PWSCup 2015)")
    kind = "pwscup.pwscup2015.kind.Pwscup2015Kind"
