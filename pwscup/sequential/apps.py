from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class SequentialConfig(KindApp, AppConfig):
    name = "pwscup.sequential"
    label = "sequential"
    verbose_name = _("Sequential-release rounds")
    kind = "pwscup.sequential.kind.SequentialKind"
