"""Publishing a results archive (the one write of the app)."""

import hashlib
import tempfile

from django.core.exceptions import ValidationError
from django.core.files import File
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from pwscup.archives.builder import write_archive
from pwscup.archives.models import ResultsArchive
from pwscup.archives.selectors import archive_rounds
from pwscup.competitions.models import AuditEntry, Competition
from pwscup.competitions.services import audit_record
from pwscup.core.files import CHUNK
from pwscup.kinds.archives import SECRETS

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


def archive_publish(*, competition: Competition, secrets, user) -> ResultsArchive:
    """Build and keep version N+1 of the competition's results archive: the rounds whose
    results are published (``archive_rounds``), each with the secrets ticked in
    ``secrets`` (keys of ``pwscup.kinds.archives.SECRETS``) and no other, and the published
    slides. Earlier versions are kept as they were.

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
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_BYTES) as spool:
            write_archive(
                spool,
                competition=competition,
                version=version,
                secrets=secrets,
                rounds=rounds,
                created_at=created_at,
            )
            archive.size = spool.tell()
            spool.seek(0)
            digest = hashlib.sha256()
            while chunk := spool.read(CHUNK):
                digest.update(chunk)
            archive.sha256 = digest.hexdigest()
            spool.seek(0)
            archive.file.save(archive.filename, File(spool, name=archive.filename), save=False)
        try:
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
            archive.file.delete(save=False)
            raise
    return archive
