from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "pwscup.accounts"
    verbose_name = _("Accounts")

    def ready(self):
        from pwscup.accounts import receivers  # the models are loaded only now

        receivers.connect()
