"""The tables an organizer uploads, as every kind keeps them (a round's original, a pack's
population, a master, a pool)."""

import hashlib

from django.core.files.base import ContentFile

from pwscup.competitions.models import Round
from pwscup.core.files import OrganizerCsv
from pwscup.core.stored import stored_bytes


def organizer_csv_keep(
    instance, *, csv: OrganizerCsv, filename: str, file: str = "file", source: str = "source"
) -> str:
    """Put an organizer's CSV on ``instance`` (before it is saved), as every table an
    organizer uploads is kept (a round's original, a pack's population, a master, a pool):
    its UTF-8 copy in the file field ``file``, and, when it was uploaded in another encoding,
    the upload as it was in ``source`` (the caller keeps ``csv.encoding``). Returns the UTF-8
    copy's SHA-256."""
    getattr(instance, file).save(filename, ContentFile(csv.utf8), save=False)
    if csv.source is not None:
        getattr(instance, source).save(filename, ContentFile(csv.source), save=False)
    else:
        setattr(instance, source, "")
    return hashlib.sha256(csv.utf8).hexdigest()


# The fields of ``Round`` that ``round_original_store`` fills.
ORIGINAL_FIELDS = ("original_file", "original_sha256", "original_encoding", "original_source")


def round_original_store(*, round: Round, csv: OrganizerCsv, filename: str) -> None:
    """Put an organizer's original on the round (before it is saved): its UTF-8 copy in
    ``original_file``, and, when it was uploaded in another encoding, the upload as it was
    in ``original_source`` with that encoding."""
    round.original_sha256 = organizer_csv_keep(
        round, csv=csv, filename=filename, file="original_file", source="original_source"
    )
    round.original_encoding = csv.encoding


def round_original_save(*, round: Round, csv: OrganizerCsv, filename: str) -> None:
    """Keep an organizer's original on a round that is already saved (a kind's round made by
    ``round_of_kind_create``): ``round_original_store``, then those fields saved."""
    round_original_store(round=round, csv=csv, filename=filename)
    round.save(update_fields=ORIGINAL_FIELDS)


def as_uploaded_bytes(file, source) -> bytes:
    """An organizer's table as the organizer uploaded it (what a bundle exports): ``source``
    when it was converted to UTF-8 (``organizer_csv_keep``), else ``file`` itself."""
    return stored_bytes(source if source else file)
