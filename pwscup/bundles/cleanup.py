"""Files an import saved, removed again when it fails.

The import's transaction rolls back every row, but not the files the kinds' services saved
to the storage on the way (originals, samples, hidden tables): a ``FileField`` writes its
file before its row. Which files those are is known only to the services that saved them,
each kind its own; what they all share is that each file is named by a ``FileField`` of a
row they save. So, for the import's duration only (a context variable set by
``files_recorded``, so other requests and threads are untouched), receivers of
``pre_save`` / ``post_save`` note the name in every ``FileField`` of every row saved
(``pre_save``: a file stored before its row, whose insert may then fail; ``post_save``: a
file the field stores during the save). They record names and do nothing else; the import
deletes them through the storage if it fails.
"""

import contextlib
import contextvars
import logging

from django.core.files.storage import default_storage
from django.db import models
from django.db.models.signals import post_save, pre_save

logger = logging.getLogger(__name__)

_recording: contextvars.ContextVar[set[str] | None] = contextvars.ContextVar(
    "pwscup_bundle_files", default=None
)


def _note_files(sender, instance, **kwargs) -> None:
    names = _recording.get()
    if names is None:
        return
    for field in instance._meta.concrete_fields:
        if isinstance(field, models.FileField):
            stored = getattr(instance, field.attname)
            if stored and stored.name:
                names.add(stored.name)


def connect_receivers() -> None:
    """Called once by ``BundlesConfig.ready``; the receivers act only inside
    ``files_recorded``."""
    pre_save.connect(_note_files, dispatch_uid="pwscup.bundles.cleanup.pre_save")
    post_save.connect(_note_files, dispatch_uid="pwscup.bundles.cleanup.post_save")


@contextlib.contextmanager
def files_recorded():
    """Run the block recording the storage names of the files its rows name; if the block
    raises, delete them (then re-raise). Enter it outside the transaction, so that the
    files go only once the rows are rolled back."""
    names: set[str] = set()
    token = _recording.set(names)
    try:
        yield names
    except BaseException:
        for name in sorted(names):
            try:
                default_storage.delete(name)
            except Exception:  # noqa: BLE001 - one file left behind must not hide the error
                logger.exception("could not delete %s after a failed import", name)
        raise
    finally:
        _recording.reset(token)
