"""The core's task: a refused write's object deleted once the bucket answers again."""

import logging

from celery import shared_task
from django.conf import settings

from pwscup.core.storage import (
    DISCARD_TASK,
    storage_errors,
    storage_stalled,
    stored_file_discard,
    stored_file_discard_later,
)

logger = logging.getLogger(__name__)

# While the storage does not answer, the delete is tried again after 10 s, 20 s, 40 s... (at
# most 10 minutes apart, a Redis broker's ETA staying well under its visibility timeout),
# for about 5 hours in all.
DISCARD_FIRST_WAIT, DISCARD_LONGEST_WAIT, DISCARD_RETRIES = 10, 600, 35


@shared_task(name=DISCARD_TASK, bind=True, ignore_result=True, max_retries=DISCARD_RETRIES)
def stored_file_discard_task(self, name: str, passes: int = 1) -> None:
    """``stored_file_discard(name)``, tried again while the storage stalls; after a delete it
    answered, sent again (``passes - 1`` more) for an object that lands after it."""
    try:
        stored_file_discard(name)
    except storage_errors() as error:
        if not storage_stalled(error) or self.request.retries >= DISCARD_RETRIES:
            logger.warning("A refused write's %s could not be deleted: %r", name, error)
            return
        wait = min(DISCARD_LONGEST_WAIT, DISCARD_FIRST_WAIT * 2**self.request.retries)
        raise self.retry(countdown=wait) from error
    if passes > 1:
        stored_file_discard_later(
            name, passes=passes - 1, countdown=settings.PWSCUP_STORAGE_DISCARD_AGAIN_AFTER
        )
