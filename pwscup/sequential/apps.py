from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SequentialConfig(AppConfig):
    name = "pwscup.sequential"
    label = "sequential"
    verbose_name = _("Sequential-release rounds")

    def ready(self) -> None:
        from pwscup.kinds import register
        from pwscup.sequential.kind import SequentialKind

        register(SequentialKind())
