from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SubmissionsConfig(AppConfig):
    name = "pwscup.submissions"
    verbose_name = _("Submissions")

    def ready(self):
        # Imported here, not at the top: models may be imported only once the app registry
        # is ready (Django's rule for ready()).
        from pwscup.competitions.audit_details import value_labels_register
        from pwscup.submissions.services.two_sided import TWO_SIDED_PHASE_LABELS

        # *Close the open phases now* names the two-sided phases it closed by their keys.
        value_labels_register("phases", TWO_SIDED_PHASE_LABELS)
