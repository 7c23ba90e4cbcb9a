from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PresentationsConfig(AppConfig):
    name = "pwscup.presentations"
    verbose_name = _("Presentations")

    def ready(self):
        # Slides count for the team-wide bounds and their preview job is reaped, like every
        # kind's uploads (pwscup/submissions/registry.py).
        from pwscup.presentations.models import Slides
        from pwscup.presentations.services import RENDER_PREVIEW_TASK
        from pwscup.submissions.registry import register_job
        from pwscup.submissions.services.jobs import JobKind

        register_job(JobKind(Slides, RENDER_PREVIEW_TASK))
