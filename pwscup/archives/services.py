"""Publishing a results archive (the one write of the app)."""

import hashlib
import logging
import tempfile

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.archives.builder import round_outcomes, write_archive
from pwscup.archives.models import ResultsArchive
from pwscup.archives.selectors import archive_rounds
from pwscup.competitions.models import AuditEntry, Competition
from pwscup.competitions.services import audit_record
from pwscup.core.files import CHUNK
from pwscup.core.storage import (
    kept_file_save,
    storage_errors,
    storage_unavailable,
    storage_write_slot,
)
from pwscup.kinds.archives import SECRETS

logger = logging.getLogger(__name__)

# Up to this size the ZIP is built in memory, past it in a temporary file on local disk.
SPOOL_BYTES = 32 * 1024 * 1024


def archive_secrets_check(secrets) -> list[str]:
    """The ticked secrets in the order of ``SECRETS``; an unknown key is refused by name."""
    unknown = sorted(set(secrets) - set(SECRETS))
    if unknown:
        raise ValidationError(
            {"secrets": _("Unknown secret: %(keys)s.") % {"keys": ", ".join(unknown)}}
        )
    return [key for key in SECRETS if key in set(secrets)]


def _write_variant(archive: ResultsArchive, *, public: bool, **build) -> None:
    """Build one variant into a spool, then keep it in ``archive``'s file field for it, with
    its SHA-256 and size."""
    with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
        write_archive(spool, with_slides=not public, **build)
        size = spool.tell()
        spool.seek(0)
        digest = hashlib.sha256()
        while chunk := spool.read(CHUNK):
            digest.update(chunk)
        spool.seek(0)
        if public:
            archive.public_size, archive.public_sha256 = size, digest.hexdigest()
            name = archive.public_filename
            kept_file_save(archive.public_file, name, File(spool, name=name))
        else:
            archive.size, archive.sha256 = size, digest.hexdigest()
            kept_file_save(archive.file, archive.filename, File(spool, name=archive.filename))


def archive_publish(*, competition: Competition, secrets, user) -> ResultsArchive:
    """Build and keep version N+1 of the competition's results archive: the rounds whose
    results are published (``archive_rounds``), each with the secrets ticked in
    ``secrets`` (keys of ``pwscup.kinds.archives.SECRETS``) and no other; in two variants,
    with the published slides and policy texts (``file``, for who may see them) and
    without (``public_file``, for every other viewer of the competition). Earlier versions
    are kept as they were.

    Two files rather than one filtered at download: each variant is a plain ZIP whose
    manifest lists exactly what it holds, with a SHA-256 a reader can check, and a download
    serves a stored file as it is. The round outcomes are read once for both.

    Built synchronously, in the request: what the archive holds is the rounds' result tables
    (kilobytes to a few megabytes, computed by the same selectors as the pages) and the
    slides, copied from storage in chunks; an organizer publishes an archive a handful of
    times per competition. A competition with many large decks (the cap is
    ``PWSCUP_SLIDES_MAX_BYTES`` each) may take as long as copying them; that would be the
    time to move this into a worker job.
    """
    secrets = archive_secrets_check(secrets)
    rounds = archive_rounds(competition=competition)
    if not rounds.included:
        raise ValidationError(
            _(
                "No round of this competition has published results yet: there is nothing to archive."
            )
        )
    with transaction.atomic():
        # One publication at a time per competition: the version number is the next one.
        Competition.objects.select_for_update().get(pk=competition.pk)
        latest = ResultsArchive.objects.filter(competition=competition).order_by("-version")
        version = latest.first().version + 1 if latest.exists() else 1
        created_at = timezone.now()
        archive = ResultsArchive(
            competition=competition,
            version=version,
            secrets=secrets,
            created_by=user if user is not None and user.is_authenticated else None,
            created_at=created_at,
        )
        build = {
            "competition": competition,
            "version": version,
            "secrets": secrets,
            "rounds": rounds,
            "created_at": created_at,
        }
        try:
            # A storage that is full, refuses or stalls refuses the publication
            # (``storage_unavailable``: 503) with neither variant kept, as it refuses an
            # upload: the rounds' files and the slides are read from it, the ZIPs written.
            with storage_write_slot():
                try:
                    build["outcomes"] = round_outcomes(rounds=rounds, secrets=secrets)
                    _write_variant(archive, public=False, **build)
                    _write_variant(archive, public=True, **build)
                except storage_errors() as error:
                    logger.warning("Archive of %s not published: %r", competition.slug, error)
                    raise storage_unavailable() from error
            archive.save()
            audit_record(
                user=user,
                competition=competition,
                action=AuditEntry.Action.ARCHIVE_PUBLISHED,
                version=version,
                rounds=len(rounds.included),
                secrets=", ".join(secrets) or "none",
                size=archive.size,
            )
        except BaseException:
            for field in (archive.file, archive.public_file):
                if field:
                    field.delete(save=False)
            raise
    return archive
