from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class SequentialConfig(AppConfig):
    name = "pwscup.sequential"
    label = "sequential"
    verbose_name = _("Sequential-release rounds")

    def ready(self) -> None:
        try:
            from pwscup.kinds import register
        except ImportError:  # pragma: no cover - the kinds registry not installed yet
            return
        from pwscup.sequential.kind import SequentialKind
        from pwscup.sequential.models import Release
        from pwscup.sequential.services import CHECK_RELEASE_TASK
        from pwscup.submissions.services.jobs import UPLOAD_JOB
        from pwscup.submissions.services.maintenance import JobKind, job_kind_register

        register(SequentialKind())
        # The reaper requeues a release check lost with its worker, like an upload's scoring.
        job_kind_register(JobKind(Release, UPLOAD_JOB, CHECK_RELEASE_TASK))
