"""``manage.py backup DIR``: the database and every kept file, consistent with each other,
into a new or empty folder (``pwscup.core.backup`` says how and why; docs/operations.md)."""

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
        return (
            f"Backed up the database ({manifest['database']['size']} bytes) and "
            f"{len(manifest['files'])} files to {directory}."
        )
