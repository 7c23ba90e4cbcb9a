"""The preview's task: thin, with the scoring tasks' options (late acknowledgement, time
limits); the job's states are the core's."""

from celery import shared_task

from pwscup.presentations import services
from pwscup.submissions.tasks import SCORING


@shared_task(bind=True, name=services.RENDER_PREVIEW_TASK, **SCORING)
def render_preview(self, slides_id: int) -> None:
    services.slides_render(
        slides_id=slides_id, task_id=self.request.id, worker=self.request.hostname
    )
