from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.kinds.registry import KindApp


class ScorerConfig(KindApp, AppConfig):
    name = "pwscup.scorer"
    label = "scorer"
    verbose_name = _("Rounds scored by the organizer's program")
    kind = "pwscup.scorer.kind.ScorerKind"
