from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class DPConfig(KindApp, AppConfig):
    name = "pwscup.dp"
    label = "dp"
    verbose_name = _("DP rounds")
    kind = "pwscup.dp.kind.DPKind"

    def ready(self) -> None:
        super().ready()
        # Imported here: models may be imported only once the app registry is ready.
        from pwscup.competitions.audit_details import value_labels_register
        from pwscup.dp.standings import OVERALL

        # The standings' audit line names each round's rankings by their labels.
        value_labels_register("rounds", {OVERALL.key: OVERALL.label})
