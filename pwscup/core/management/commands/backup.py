"""``manage.py backup DIR``: the database and every kept file, consistent with each other,
into a new or empty folder (``pwscup.core.backup`` says how and why; docs/operations.md)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from pwscup.core.backup import BackupError, backup_create


class Command(BaseCommand):
    help = (
        "Back up the PostgreSQL database and every file it refers to (from the folder or "
        "the bucket) into DIR, with a manifest of SHA-256 sums."
    )

    def add_arguments(self, parser):
        parser.add_argument("directory", type=Path, help="a new or empty folder")

    def handle(self, *args, directory: Path, **options):
        try:
            manifest = backup_create(directory=directory, progress=self.stdout.write)
        except BackupError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(
            self.style.SUCCESS(
                f"Backed up the database ({manifest['database']['size']} bytes) and "
                f"{len(manifest['files'])} files to {directory}."
            )
        )
