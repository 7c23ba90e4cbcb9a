from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class SyntheticConfig(KindApp, AppConfig):
    name = "pwscup.synthetic"
    label = "synthetic"
    verbose_name = _("Synthetic-data rounds")
    kind = "pwscup.synthetic.kind.SyntheticKind"
