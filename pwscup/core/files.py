"""Small helpers for the private files the platform keeps."""

import contextlib
import hashlib
import io
from dataclasses import dataclass

from django.core.files.base import ContentFile, File
from django.http import FileResponse, Http404

from scoring.encodings import UTF8, encoding_label, to_utf8

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


@dataclass(frozen=True)
class OrganizerCsv:
    """An organizer's CSV on its way in: ``utf8`` is what is scored and served; ``source``
    the file as uploaded when it was in another ``encoding`` (a Python codec name), else
    None (``utf8`` is then the upload itself, byte for byte) and ``encoding`` is ``""``."""

    utf8: bytes
    source: bytes | None
    encoding: str

    @property
    def encoding_label(self) -> str:
        """``"Shift_JIS (CP932)"`` for ``cp932``: how pages name the source encoding."""
        return encoding_label(self.encoding)


def organizer_csv(data: bytes, *, name: str) -> OrganizerCsv:
    """The one way an organizer's CSV (an original, a hidden table, a master, a pool) enters
    the platform: UTF-8 as it is, any other encoding recognised for sure converted (the
    upload kept beside it). Raises ``scoring.ValidationError`` (it names the likely
    encoding and how to save the file as UTF-8) when the encoding is not sure."""
    converted, encoding = to_utf8(data, name=name)
    if encoding == UTF8:
        return OrganizerCsv(utf8=data, source=None, encoding="")
    return OrganizerCsv(utf8=converted, source=data, encoding=encoding)


def source_encoding_label(encoding: str) -> str:
    """How pages name a stored source encoding (``""``: the file was UTF-8)."""
    return encoding_label(encoding) if encoding else ""


# Every private CSV is served as UTF-8 (originals in another encoding are converted on upload).
CSV_CONTENT_TYPE = "text/csv; charset=utf-8"


def private_file_response(
    field, filename: str, *, content_type: str = CSV_CONTENT_TYPE, as_attachment: bool = True
) -> FileResponse:
    """Serve a private file (a CSV unless ``content_type`` says otherwise: a PDF, a PNG
    preview shown inline with ``as_attachment=False``, a ZIP); callers have checked
    permission already."""
    if not field:
        raise Http404  # the API's *Not found.*, as for a file that never was
    return FileResponse(
        field.open("rb"),
        as_attachment=as_attachment,
        filename=filename,
        content_type=content_type,
    )
