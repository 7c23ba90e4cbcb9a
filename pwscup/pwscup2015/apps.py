from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class Pwscup2015Config(AppConfig):
    name = "pwscup.pwscup2015"
    label = "pwscup2015"
    verbose_name = _("Anonymize-then-attack rounds (PWSCup 2015)")

    def ready(self) -> None:
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.kinds import register
        from pwscup.pwscup2015.kind import Pwscup2015Kind

        register(Pwscup2015Kind())
