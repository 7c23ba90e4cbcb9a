"""Shared handling of ``manage.py backup`` and ``manage.py restore``: one folder argument, one
service run on it with its progress printed, a ``BackupError`` as the command's error."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from pwscup.core.backup import BackupError


class BackupFolderCommand(BaseCommand):
    """A command taking ``DIR`` (``folder_help`` says which) and running ``service`` on it:
    ``backup_create`` or ``backup_restore``, which return the backup's manifest."""

    folder_help = ""
    service = None

    def done(self, manifest: dict, directory: Path) -> str:
        """The closing line, once ``service`` returned ``manifest``."""
        raise NotImplementedError

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path, help=self.folder_help)

    def handle(self, *args, directory: Path, **options):
        try:
            manifest = self.service(directory=directory, progress=self.stdout.write)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(self.done(manifest, directory)))
