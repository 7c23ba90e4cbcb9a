"""A file an organizer's form of several steps keeps between them (a round's original table,
uploaded at the first step): written once to the private storage (the local folder or the
bucket: every host reads it), its name in the session per competition. A later step and
every form error read it back, so the organizer never chooses the file again; finishing,
starting over or cancelling deletes it. A draft whose file has gone (the storage lost it,
the session expired) reads as ``None``, for the form to report, never silently replaced."""

import secrets
from dataclasses import dataclass

from django.contrib import messages
from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.core.form_fields import upload_within_limit
from pwscup.core.storage import storage_errors, storage_unavailable, storage_write_slot
from scoring.errors import ScoringError
from scoring.errors import ValidationError as ScoringValidationError


class KeptUploadForm:
    """A first step's form whose file field ``kept_field`` may stay empty once a draft is
    kept (``kept=True``): sent without a file, the kept one stays and the form goes on."""

    kept_field = "original"

    def __init__(self, *args, kept: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields[self.kept_field].required = not kept

    def goes_on_with_kept(self) -> bool:
        """Posted, valid and with no file while one is kept: the next step uses the kept one."""
        optional = not self.fields[self.kept_field].required
        return (
            self.is_bound
            and optional
            and self.is_valid()
            and not self.cleaned_data[self.kept_field]
        )


@dataclass(frozen=True)
class Draft:
    """A kept upload: its storage name and the name the organizer's file had."""

    file: str
    filename: str


@dataclass(frozen=True)
class SessionDrafts:
    """The drafts of one form: ``session_key`` (the session's key before the competition's
    id) and ``folder`` (under ``private/``, where the files go)."""

    session_key: str
    folder: str
    default_filename: str = "original.csv"

    def _key(self, competition_id: int) -> str:
        return f"{self.session_key}-{competition_id}"

    def state(self, session, competition_id: int) -> dict:
        """The form's whole entry in the session: the draft's ``file`` and ``filename``, and
        whatever the form keeps beside them between its steps (a copy: ``save`` it back)."""
        return dict(session.get(self._key(competition_id)) or {})

    def save(self, session, competition_id: int, state: dict) -> None:
        """Keep the form's entry (``state``, holding the draft's ``file`` and ``filename``)."""
        session[self._key(competition_id)] = state
        session.modified = True

    def get(self, session, competition_id: int) -> Draft | None:
        state = session.get(self._key(competition_id)) or {}
        if not state.get("file"):
            return None
        return Draft(file=state["file"], filename=state.get("filename") or self.default_filename)

    def clear(self, session, competition_id: int) -> None:
        """Forget the competition's draft and delete its file (if the storage still has
        it)."""
        state = session.pop(self._key(competition_id), None) or {}
        session.modified = True
        if state.get("file"):
            try:
                default_storage.delete(state["file"])
            except storage_errors():
                pass  # a file left behind under private/ is never served

    def store(self, session, competition_id: int, *, content: bytes, filename: str) -> Draft:
        """Keep an upload for the next steps (replacing an earlier draft). Raises
        ``Refused`` (503) when the storage cannot take it."""
        self.clear(session, competition_id)
        safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in filename)[-80:]
        try:
            with storage_write_slot():
                name = default_storage.save(
                    f"{self.folder}/{secrets.token_hex(12)}-{safe}", ContentFile(content)
                )
        except storage_errors() as error:
            raise storage_unavailable() from error
        self.save(session, competition_id, {"file": name, "filename": filename})
        return Draft(file=name, filename=filename)

    def lost(self, request, competition_id: int) -> None:
        """Forget a draft whose file can no longer be read, and tell the organizer to upload
        it again (the page then goes back to the first step)."""
        self.clear(request.session, competition_id)
        messages.error(
            request,
            _(
                "The table uploaded at step 1 is no longer kept (the session ended or the "
                "storage lost it): upload it again."
            ),
        )


def draft_bytes(draft: Draft) -> bytes | None:
    """The kept upload, or None when the storage no longer has it."""
    try:
        with default_storage.open(draft.file, "rb") as handle:
            return handle.read()
    except (FileNotFoundError, *storage_errors()):
        return None


def draft_upload(request, form, field: str, *, read, store):
    """The first step of an organizer's form of several steps, posted: the file of ``form``'s
    ``field`` (within the upload limit) read by ``read(content, filename)`` and kept by
    ``store(content, filename)`` (through the form's ``SessionDrafts``). Returns what both
    made of it, ``(read, stored)``; ``None`` when nothing was kept, the reason next to the
    field: the form is not posted or not valid, the file does not read (a ``ScoringError``,
    in the reader's language), it has no data row (a table ``read`` returns, a header
    alone) or the storage refused it."""
    if request.method != "POST" or not form.is_valid():
        return None
    upload = upload_within_limit(form, field)
    if upload is None:
        return None
    content = upload.read()
    try:
        table = read(content, upload.name)
        if len(table) == 0:  # a header alone: nothing to draw, score or publish
            raise ScoringValidationError("original.no_rows")
    except ScoringError as error:
        form.add_error(field, error.render(get_language()))
        return None
    try:
        stored = store(content, upload.name)
    except Refused as refusal:
        form.add_error(field, refusal.message)
        return None
    return table, stored
