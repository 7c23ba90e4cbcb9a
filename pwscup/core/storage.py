"""Writing a kept file to the storage (the local folder or the bucket) so that a storage that
stalls, refuses or is full never takes the site down nor leaves half a file behind.

* **Bounded time.** Each call to a bucket waits at most ``PWSCUP_STORAGE_CONNECT_TIMEOUT`` /
  ``PWSCUP_STORAGE_READ_TIMEOUT`` and is retried ``PWSCUP_STORAGE_RETRIES`` times (the
  client's ``Config``, ``pwscup.settings.base.s3_storage``).
* **Bounded threads.** At most ``PWSCUP_STORAGE_WRITE_SLOTS`` requests of one process write at
  once (``storage_write_slot``); one more waits ``PWSCUP_STORAGE_SLOT_WAIT`` seconds for a
  slot (a healthy storage frees one in milliseconds, so a burst of uploads queues briefly)
  and is refused then, so a stalled bucket holds that many web threads for long at most and
  every page that does not touch it keeps answering.
* **Nothing half kept.** A write that fails (a full disk, a bucket that refuses or times out)
  deletes what it had written under its name and raises ``Refused`` (503, ``Retry-After``):
  the caller's transaction rolls back, so no row refers to a file that is not there.
"""

import contextlib
import datetime as dt
import logging
import threading

from boto3.exceptions import Boto3Error
from botocore.exceptions import BotoCoreError, ClientError
from django.conf import settings
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused

logger = logging.getLogger(__name__)

# When the storage is back, as far as a client can tell: the Retry-After of a refusal.
RETRY_AFTER_SECONDS = 60
# A bucket that refuses (ClientError: no such bucket, access denied), cannot be reached or does
# not answer in time (BotoCoreError: EndpointConnectionError, ConnectTimeoutError,
# ReadTimeoutError), or whose upload fails (boto3's S3UploadFailedError).
BUCKET_ERRORS = (BotoCoreError, ClientError, Boto3Error)
# A local folder that is full (ENOSPC), past a file-size limit (EFBIG), read-only...
STORAGE_ERRORS = (*BUCKET_ERRORS, OSError)

_slots_guard = threading.Lock()
_slots: tuple[int, threading.BoundedSemaphore] | None = None


def storage_unavailable() -> Refused:
    """The refusal of a file the storage cannot take now: 503, try again in a minute."""
    return Refused(
        _(
            "The platform cannot store files right now (its storage is slow, full or "
            "unreachable). Your file was not kept and does not count towards your upload "
            "limits; please try again in a few minutes."
        ),
        status=503,
        code="storage_unavailable",
        resets_at=timezone.now() + dt.timedelta(seconds=RETRY_AFTER_SECONDS),
    )


def _write_slots() -> threading.BoundedSemaphore:
    # A semaphore of the standard library, taken with a short wait: no library bounds the calls
    # of one process to a resource and refuses the one past the bound after a bounded wait (a
    # pool would queue it for as long as the storage stalls, holding its web thread, which is
    # what must not happen). Made again when the setting changes (tests); a holder keeps the
    # one it took.
    global _slots
    count = settings.PWSCUP_STORAGE_WRITE_SLOTS
    with _slots_guard:
        if _slots is None or _slots[0] != count:
            _slots = (count, threading.BoundedSemaphore(count))
        return _slots[1]


@contextlib.contextmanager
def storage_write_slot():
    """One of the process's ``PWSCUP_STORAGE_WRITE_SLOTS`` writes to the storage, or
    ``storage_unavailable()`` when all stay taken for ``PWSCUP_STORAGE_SLOT_WAIT`` seconds
    (by writes a slow storage holds)."""
    slots = _write_slots()
    if not slots.acquire(timeout=settings.PWSCUP_STORAGE_SLOT_WAIT):
        logger.warning(
            "A storage write refused: all %s write slots are busy",
            settings.PWSCUP_STORAGE_WRITE_SLOTS,
        )
        raise storage_unavailable()
    try:
        yield
    finally:
        slots.release()


def kept_file_save(field_file, name: str, content) -> str:
    """Write ``content`` as ``field_file``'s file (named by its field's ``upload_to`` from
    ``name``) and return the stored name; the model instance is not saved.

    On a storage error the file is deleted from a local folder (a full disk leaves a partial
    file) and ``storage_unavailable()`` is raised. A bucket's object is not deleted: the bucket
    refused it or did not answer (a delete would wait as long); the name is logged, since an
    upload whose answer timed out may still land once the bucket answers again.
    """
    field = field_file.field
    # ``upload_to`` names carry a random part, so this name is the one the storage keeps (it
    # picks another only when the name is taken): a failed write is found under it.
    stored = field.generate_filename(field_file.instance, name)
    storage = field_file.storage
    try:
        stored = storage.save(stored, content, max_length=field.max_length)
    except STORAGE_ERRORS as error:
        if isinstance(error, BUCKET_ERRORS):
            logger.warning("Storage write of %s failed, not kept: %r", stored, error)
        else:
            logger.warning("Storage write of %s failed, deleting it: %r", stored, error)
            try:
                storage.delete(stored)
            except OSError:
                logger.exception("Could not delete the partial file %s", stored)
        raise storage_unavailable() from error
    setattr(field_file.instance, field.attname, stored)
    return stored
