"""``manage.py restore DIR``: a backup of ``manage.py backup`` into this deployment, whose
database and storage must be empty (``pwscup.core.restore``; docs/operations.md)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from pwscup.core.backup import BackupError
from pwscup.core.restore import backup_restore


class Command(BaseCommand):
    help = (
        "Restore the backup in DIR into this deployment: its database and storage must be "
        "empty. Every SHA-256 is checked first; nothing is changed when one differs."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path, help="a folder written by manage.py backup")

    def handle(self, *args, directory: Path, **options):
        try:
            manifest = backup_restore(directory=directory, progress=self.stdout.write)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Restored the database and {len(manifest['files'])} files of the backup "
                f"made at {manifest['created_at']}."
            )
        )
