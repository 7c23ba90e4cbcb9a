from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class LeaderboardsConfig(AppConfig):
    name = "pwscup.leaderboards"
    verbose_name = _("Leaderboards")
