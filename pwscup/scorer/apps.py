from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class ScorerConfig(KindApp, AppConfig):
    name = "pwscup.scorer"
    label = "scorer"
    verbose_name = _("Rounds scored by the organizer's program")
    kind = "pwscup.scorer.kind.ScorerKind"

    def ready(self) -> None:
        super().ready()
        # Imported here: models may be imported only once the app registry is ready.
        from pwscup.competitions.audit_details import value_labels_register
        from pwscup.scorer.models import DataPack
        from pwscup.scorer.services.salt import SALT_STEPS

        # A data pack's audit line names its role ("slots", or "slots (choice)").
        value_labels_register("data_pack", DataPack.Role.choices)
        # The committed salt's steps (``services.salt``).
        value_labels_register("salt", SALT_STEPS)
