from django.apps import AppConfig
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _


class CompetitionsConfig(AppConfig):
    name = "pwscup.competitions"
    verbose_name = _("Competitions")

    def ready(self):
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.competitions.dates import clamp_on_load

        # A date stored outside the accepted window is read as one just outside it, never
        # as an error (pwscup/competitions/dates.py).
        connection_created.connect(clamp_on_load, dispatch_uid="pwscup-dates-clamp-on-load")
