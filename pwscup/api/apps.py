from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "pwscup.api"
    verbose_name = _("REST API")
