from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class Pwscup2015Config(KindApp, AppConfig):
    name = "pwscup.pwscup2015"
    label = "pwscup2015"
    verbose_name = _("Anonymize-then-attack rounds (PWSCup 2015)")
    kind = "pwscup.pwscup2015.kind.Pwscup2015Kind"

    def ready(self) -> None:
        super().ready()
        # Imported here: models may be imported only once the app registry is ready.
        from pwscup.competitions.audit_details import value_labels_register
        from pwscup.pwscup2015.standings import ANONYMIZATION

        # The standings' audit line names each round's rankings by their labels.
        value_labels_register("rounds", {ANONYMIZATION.key: ANONYMIZATION.label})
