from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class DPConfig(KindApp, AppConfig):
    name = "pwscup.dp"
    label = "dp"
    verbose_name = _("DP rounds")
    kind = "pwscup.dp.kind.DPKind"
