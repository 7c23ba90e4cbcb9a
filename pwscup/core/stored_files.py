"""Files in the storage as the models' rows name them: every ``FileField`` of every
installed model, found through the models' public ``_meta`` API, so that no kind lists its
files a second time. A service deleting rows reads the names their files have first
(``files_named``), and, once its transaction has committed, deletes the ones no row names
any more (``unnamed_files_delete``): a file another row still names (a copy sharing it)
stays."""

import logging

from django.apps import apps
from django.core.files.storage import Storage
from django.db import models

logger = logging.getLogger(__name__)


def file_fields(model=None) -> list[tuple[type[models.Model], models.FileField]]:
    """Every concrete ``FileField`` (``ImageField`` included) of ``model``, or of every
    installed model when ``model`` is ``None``, with its model."""
    found = []
    for current in [model] if model is not None else apps.get_models():
        for field in current._meta.concrete_fields:
            if isinstance(field, models.FileField):
                found.append((current, field))
    return found


def files_named(queryset) -> dict[str, Storage]:
    """The storage names the rows of ``queryset`` hold in their file fields, each with its
    field's storage (an empty field names no file)."""
    names = {}
    for _model, field in file_fields(queryset.model):
        held = queryset.exclude(**{field.attname: ""}).exclude(**{f"{field.attname}__isnull": True})
        for name in held.values_list(field.attname, flat=True):
            names[name] = field.storage
    return names


def _still_named(name: str) -> bool:
    return any(
        model._default_manager.filter(**{field.attname: name}).exists()
        for model, field in file_fields()
    )


def unnamed_files_delete(files: dict[str, Storage]) -> list[str]:
    """Delete from its storage each of ``files`` (name → storage) that no row of any model
    names any more; returns the names deleted. A file that cannot be deleted (the storage
    is down) is logged and left: the rows are gone already, and the caller's answer stands."""
    deleted = []
    for name, storage in sorted(files.items()):
        if _still_named(name):
            continue
        try:
            storage.delete(name)
        except Exception:  # noqa: BLE001 - one file left behind must not stop the others
            logger.exception("could not delete %s, named by no row any more", name)
            continue
        deleted.append(name)
    return deleted
