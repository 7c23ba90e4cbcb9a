from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class BundlesConfig(AppConfig):
    name = "pwscup.bundles"
    verbose_name = _("Bundles")
