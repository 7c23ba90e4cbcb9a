from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ArchivesConfig(AppConfig):
    name = "pwscup.archives"
    verbose_name = _("Archives")

    def ready(self):
        # Imported here: the audit log's details need the app registry (Django's rule).
        from pwscup.competitions.audit_details import value_labels_register
        from pwscup.kinds.archives import SECRETS

        # An archive's audit line names the secrets it includes ("original, samples").
        value_labels_register("secrets", {**SECRETS, "none": _("none")})
