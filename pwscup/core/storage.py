"""Writing a kept file to the storage (the local folder or the bucket) so that a storage that
stalls, refuses or is full never takes the site down nor leaves half a file behind.

* **Bounded time.** Each call to a bucket waits at most ``PWSCUP_STORAGE_CONNECT_TIMEOUT`` /
  ``PWSCUP_STORAGE_READ_TIMEOUT`` and is retried ``PWSCUP_STORAGE_RETRIES`` times (the
  client's ``Config``, ``pwscup.settings.files.s3_storage``).
* **Bounded threads.** At most ``PWSCUP_STORAGE_WRITE_SLOTS`` requests of one process write at
  once (``storage_write_slot``). One more waits up to ``PWSCUP_STORAGE_SLOT_WAIT`` seconds
  for a slot while the holders are young (a healthy storage frees one in milliseconds, so a
  burst of uploads only queues), and is refused at once when every holder has been writing
  longer than that (a stalled storage): a stalled bucket holds that many web threads at most
  and every page that does not touch it keeps answering.
* **Nothing half kept.** A write that fails (a full disk, a bucket that refuses or times out)
  deletes what it had written under its name and raises ``Refused`` (503, ``Retry-After``):
  the caller's transaction rolls back, so no row refers to a file that is not there.
* **Nothing kept late.** A bucket that did not answer a write in time may still have received
  it, and stores the object once it answers again (a client's timeout withdraws nothing):
  a worker deletes that name once the bucket answers, and once more
  ``PWSCUP_STORAGE_DISCARD_AGAIN_AFTER`` seconds later (``stored_file_discard_later``).
"""

import contextlib
import datetime as dt
import functools
import itertools
import logging
import threading
import time

from botocore.exceptions import BotoCoreError, ClientError, HTTPClientError
from botocore.exceptions import ConnectionError as BucketConnectionError
from celery import current_app
from django.conf import settings
from django.core.files.storage import default_storage
from django.utils import timezone
from django.utils.translation import gettext as _
from kombu.exceptions import KombuError

from pwscup.core.errors import Refused

logger = logging.getLogger(__name__)

# When the storage is back, as far as a client can tell: the Retry-After of a refusal.
RETRY_AFTER_SECONDS = 60


@functools.cache
def bucket_errors() -> tuple[type[Exception], ...]:
    """A bucket that refuses (ClientError: no such bucket, access denied), cannot be reached or
    does not answer in time (BotoCoreError: EndpointConnectionError, ConnectTimeoutError,
    ReadTimeoutError), or whose upload fails (boto3's S3UploadFailedError).

    Read when an error is met (``except storage_errors()`` evaluates it only then): importing
    boto3 costs 120 ms of every process's start (the web server's, the worker's, each
    ``manage.py``), and a process on a local folder never loads it otherwise."""
    from boto3.exceptions import Boto3Error

    return (BotoCoreError, ClientError, Boto3Error)


def storage_errors() -> tuple[type[Exception], ...]:
    """``bucket_errors()``, and a local folder that is full (ENOSPC), past a file-size limit
    (EFBIG), read-only..."""
    return (*bucket_errors(), OSError)


def storage_stalled(error: BaseException | None) -> bool:
    """``error`` (or an error it was raised from) says the bucket did not answer or failed on
    its side (a timeout, a lost connection, a 5xx): the same call may succeed later. A refusal
    that would not change (no such key, access denied, bad credentials) is not a stall."""
    seen = set()
    while error is not None and id(error) not in seen:
        seen.add(id(error))
        if isinstance(error, (BucketConnectionError, HTTPClientError)):
            return True
        if isinstance(error, ClientError):
            status = error.response.get("ResponseMetadata", {}).get("HTTPStatusCode") or 0
            return status >= 500
        error = error.__cause__ or error.__context__
    return False


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


def storage_write_pending(*, upload: bool = True, own: bool = True) -> Refused:
    """The refusal of a team's request (an ``upload``, or another change of the team's) while
    an upload of the team is still being written (the team's row, which that upload holds,
    not free within ``PWSCUP_STORAGE_SLOT_WAIT`` seconds, ``team_row_lock``): 503, the same
    code as ``storage_unavailable``; try again once that write is over, at the latest when a
    stalled storage's tries have all timed out. ``own``: asked by a member of the team (else
    by an organizer, told of "this team", not "your team")."""
    longest = settings.PWSCUP_STORAGE_READ_TIMEOUT * (1 + settings.PWSCUP_STORAGE_RETRIES)
    if not own:
        message = _(
            "An upload of this team is still being written to the platform's storage. "
            "Nothing was changed; please try again in a moment."
        )
    elif upload:
        message = _(
            "Another upload of your team is still being written to the platform's storage. "
            "Your file was not kept and does not count towards your upload limits; please "
            "try again in a moment."
        )
    else:
        message = _(
            "Another upload of your team is still being written to the platform's storage. "
            "Nothing was changed; please try again in a moment."
        )
    return Refused(
        message,
        status=503,
        code="storage_unavailable",
        resets_at=timezone.now() + dt.timedelta(seconds=max(1, longest)),
    )


class WriteSlots:
    """``count`` slots to write to the storage, and when each holder took its slot.

    Hand-written over the standard library's semaphore: no library bounds the calls of one
    process to a resource and tells a busy resource from a stalled one. A pool would queue
    every request for as long as the storage stalls, holding its web thread, which is what
    must not happen; refusing at once whenever the slots are taken would refuse a burst of
    uploads that a healthy storage writes in milliseconds (the multi-host test's did).
    """

    def __init__(self, count: int):
        self.count = count
        self._free = threading.BoundedSemaphore(count)
        self._lock = threading.Lock()
        self._taken_at: dict[int, float] = {}
        self._tokens = itertools.count()

    def _stalled(self, wait: float) -> bool:
        """Every slot is held by a write older than ``wait``: the storage is slow, not busy."""
        with self._lock:
            ages = [time.monotonic() - taken for taken in self._taken_at.values()]
        return len(ages) >= self.count and min(ages) > wait

    def acquire(self, wait: float) -> int | None:
        """A token for a slot: at once, or within ``wait`` seconds while the holders are
        young; ``None`` when the slots stay taken, or at once when they are all stalled."""
        if not self._free.acquire(blocking=False):
            if self._stalled(wait) or not self._free.acquire(timeout=wait):
                return None
        with self._lock:
            token = next(self._tokens)
            self._taken_at[token] = time.monotonic()
        return token

    def release(self, token: int) -> None:
        with self._lock:
            del self._taken_at[token]
        self._free.release()


_slots_guard = threading.Lock()
_slots: WriteSlots | None = None


def _write_slots() -> WriteSlots:
    # Made again when the setting changes (tests); a holder keeps the one it took.
    global _slots
    count = settings.PWSCUP_STORAGE_WRITE_SLOTS
    with _slots_guard:
        if _slots is None or _slots.count != count:
            _slots = WriteSlots(count)
        return _slots


@contextlib.contextmanager
def storage_write_slot():
    """One of the process's ``PWSCUP_STORAGE_WRITE_SLOTS`` writes to the storage, or
    ``storage_unavailable()``: at once when every slot is held by a write older than
    ``PWSCUP_STORAGE_SLOT_WAIT`` seconds (a stalled storage), else after waiting that long
    for a slot a burst of healthy writes frees."""
    slots = _write_slots()
    token = slots.acquire(settings.PWSCUP_STORAGE_SLOT_WAIT)
    if token is None:
        logger.warning(
            "A storage write refused: all %s write slots are busy",
            settings.PWSCUP_STORAGE_WRITE_SLOTS,
        )
        raise storage_unavailable()
    try:
        yield
    finally:
        slots.release(token)


def kept_file_save(field_file, name: str, content) -> str:
    """Write ``content`` as ``field_file``'s file (named by its field's ``upload_to`` from
    ``name``) and return the stored name; the model instance is not saved.

    On a storage error the file is deleted from a local folder (a full disk leaves a partial
    file) and ``storage_unavailable()`` is raised. A bucket's object is not deleted here: the
    bucket refused it, or did not answer (a delete would wait as long). A write the bucket did
    not answer in time may still land once it answers again: its name is handed to a worker
    that deletes it then (``stored_file_discard_later``), whatever the caller's transaction
    does (no row will ever name it).
    """
    field = field_file.field
    # ``upload_to`` names carry a random part, so this name is the one the storage keeps (it
    # picks another only when the name is taken): a failed write is found under it.
    stored = field.generate_filename(field_file.instance, name)
    storage = field_file.storage
    try:
        stored = storage.save(stored, content, max_length=field.max_length)
    except storage_errors() as error:
        if isinstance(error, bucket_errors()):
            logger.warning("Storage write of %s failed, not kept: %r", stored, error)
            if storage_stalled(error):
                stored_file_discard_later(stored)
        else:
            logger.warning("Storage write of %s failed, deleting it: %r", stored, error)
            try:
                storage.delete(stored)
            except OSError:
                logger.exception("Could not delete the partial file %s", stored)
        raise storage_unavailable() from error
    setattr(field_file.instance, field.attname, stored)
    return stored


# The worker's task that deletes a refused write's object (``pwscup.core.tasks``), sent by name:
# the services cannot import the tasks.
DISCARD_TASK = "pwscup.core.tasks.stored_file_discard"
# The deletes of one name: once the bucket answers again, and once more a while later.
DISCARD_PASSES = 2


def stored_file_discard_later(name: str, *, passes: int = DISCARD_PASSES, countdown=None) -> bool:
    """Have a worker delete ``name`` from the storage (``stored_file_discard``), ``countdown``
    seconds from now (at once by default), then ``passes - 1`` more times, each
    ``PWSCUP_STORAGE_DISCARD_AGAIN_AFTER`` seconds after the last delete the storage answered.

    For the object of a write refused because the bucket did not answer in time: it had been
    sent, and the bucket may store it once it answers again, even after a first delete that
    it answered at once (the write's request was still in its hands). Sent at once, not when
    a transaction commits: the name's row was rolled back. False, with the name logged for
    an operator to delete, when the broker cannot be reached."""
    try:
        current_app.send_task(
            DISCARD_TASK, args=(name,), kwargs={"passes": passes}, countdown=countdown
        )
    except (KombuError, OSError) as error:
        logger.warning("A refused write's %s may land later; delete it: %r", name, error)
        return False
    return True


def stored_file_discard(name: str) -> None:
    """Delete ``name`` from the storage; nothing to do when it is not there. Raises
    ``storage_errors()`` when the storage does not answer (``storage_stalled``: try later)."""
    default_storage.delete(name)
