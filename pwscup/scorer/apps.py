from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ScorerConfig(AppConfig):
    name = "pwscup.scorer"
    label = "scorer"
    verbose_name = _("Rounds scored by the organizer's program")

    def ready(self) -> None:
        # Imported here: models may be imported only once the app registry is ready.
        from pwscup.kinds import register
        from pwscup.scorer.kind import ScorerKind

        register(ScorerKind())
