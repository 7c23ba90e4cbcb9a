"""``manage.py restore DIR``: a backup of ``manage.py backup`` into this deployment, whose
database and storage must be empty (``pwscup.core.restore``; docs/operations.md)."""

from django.utils.translation import gettext as _

from pwscup.core.management.commands._backup_folder import BackupFolderCommand
from pwscup.core.restore import backup_restore


class Command(BackupFolderCommand):
    help = (
        "Restore the backup in DIR into this deployment: its database and storage must be "
        "empty. Every SHA-256 is checked first; nothing is changed when one differs."
    )
    service = staticmethod(backup_restore)
    folder_help = "a folder written by manage.py backup"

    def done(self, manifest, directory):
        return _("Restored the database and %(files)d files of the backup made at %(made)s.") % {
            "files": len(manifest["files"]),
            "made": manifest["created_at"],
        }
