from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class DPConfig(AppConfig):
    name = "pwscup.dp"
    label = "dp"
    verbose_name = _("DP rounds")

    def ready(self) -> None:
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.dp.kind import DPKind
        from pwscup.kinds import register

        register(DPKind())
