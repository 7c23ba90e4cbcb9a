"""Small helpers for the private files the platform keeps."""

import contextlib
import hashlib
import io

from django.core.files.base import ContentFile, File

CHUNK = 1024 * 1024


def sha256_of(uploaded: File) -> str:
    digest = hashlib.sha256()
    uploaded.seek(0)
    for chunk in (
        uploaded.chunks(CHUNK)
        if hasattr(uploaded, "chunks")
        else iter(lambda: uploaded.read(CHUNK), b"")
    ):
        digest.update(chunk)
    uploaded.seek(0)
    return digest.hexdigest()


def csv_content(table, writer) -> ContentFile:
    """Render a DataFrame with ``scoring.write_csv`` into a Django ContentFile."""
    buffer = io.BytesIO()
    writer(table, buffer)
    return ContentFile(buffer.getvalue())


@contextlib.contextmanager
def opened(field):
    """A stored FileField opened for binary reading, closed afterwards."""
    field.open("rb")
    try:
        yield field.file
    finally:
        field.close()
