from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SyntheticConfig(AppConfig):
    name = "pwscup.synthetic"
    label = "synthetic"
    verbose_name = _("Synthetic-data rounds")

    def ready(self) -> None:
        # Imported here: models may be imported only once the app registry is ready.
        from pwscup.kinds import register
        from pwscup.synthetic.kind import SyntheticKind

        register(SyntheticKind())
