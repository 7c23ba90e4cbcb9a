from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _

from pwscup.bundles.cleanup import connect_receivers


class BundlesConfig(AppConfig):
    name = "pwscup.bundles"
    verbose_name = _("Bundles")

    def ready(self):
        # The import's record of the files it saved (pwscup/bundles/cleanup.py).
        connect_receivers()
