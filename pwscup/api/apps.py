from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ApiConfig(AppConfig):
    name = "pwscup.api"
    verbose_name = _("REST API")

    def ready(self) -> None:
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.accounts.signals import password_set
        from pwscup.api.services import api_tokens_revoke_on_password_set

        password_set.connect(api_tokens_revoke_on_password_set, dispatch_uid="api-tokens-revoke")
