"""``manage.py backup DIR``: the database and every kept file, consistent with each other,
into a new or empty folder (``pwscup.core.backup`` says how and why; docs/operations.md)."""

from django.utils.translation import gettext as _

from pwscup.core.backup import backup_create
from pwscup.core.management.commands._backup_folder import BackupFolderCommand


class Command(BackupFolderCommand):
    help = (
        "Back up the PostgreSQL database and every file it refers to (from the folder or "
        "the bucket) into DIR, with a manifest of SHA-256 sums."
    )
    service = staticmethod(backup_create)
    folder_help = "a new or empty folder"

    def done(self, manifest, directory):
        return _("Backed up the database (%(size)d bytes) and %(files)d files to %(folder)s.") % {
            "size": manifest["database"]["size"],
            "files": len(manifest["files"]),
            "folder": directory,
        }
