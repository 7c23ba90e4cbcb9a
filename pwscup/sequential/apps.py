from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SequentialConfig(AppConfig):
    name = "pwscup.sequential"
    label = "sequential"
    verbose_name = _("Sequential-release rounds")

    def ready(self) -> None:
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.kinds import register
        from pwscup.sequential.kind import SequentialKind

        register(SequentialKind())
