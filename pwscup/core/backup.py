"""Back up a whole deployment, its PostgreSQL database and every file it keeps, in one
consistent copy: ``manage.py backup DIR`` calls ``backup_create``. ``pwscup.core.restore``
restores such a backup into an empty deployment (``manage.py restore DIR``).

A backup is a folder::

    DIR/manifest.json    format, version, creation time, the dump's and every file's
                         storage name, size and SHA-256 (written last: no manifest, no backup)
    DIR/database.dump    pg_dump --format=custom
    DIR/files/<name>     every file a FileField refers to, under its storage name

**Why the database and the files agree.** The backup opens one REPEATABLE READ transaction
and exports its snapshot (``pg_export_snapshot()``); the same transaction (same snapshot)
lists the name in every FileField of every installed model, and ``pg_dump --snapshot``
dumps exactly that snapshot while the transaction stays open. So the files copied are
exactly the files the dump refers to, whatever the web and the workers write meanwhile:
a file written after the snapshot belongs to a row the dump does not hold, so it is not
needed; and files are write-once (a name is never overwritten and no file a row names is
ever deleted: the file-system storage picks a free name, the bucket has
``file_overwrite=False``), so a copy made after the snapshot is the file as it was at the
snapshot. A referenced file that is missing is an error: the backup stops, naming each
one (model, primary key, field, name), and leaves no partial backup.

``pwscup.core.restore`` restores a backup into an empty deployment.

PostgreSQL only: the ``pg_dump`` / ``pg_restore`` of the server's major version must be on
the PATH. Connection settings come from ``settings.DATABASES["default"]`` and reach them
through libpq's environment variables (the password as ``PGPASSWORD``, never on a command
line).
"""

import datetime as dt
import hashlib
import json
import os
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from django.apps import apps
from django.conf import settings
from django.core.files.storage import default_storage
from django.db import connection, models, transaction
from django.utils.translation import gettext as _

FORMAT = "pwscup-backup"
VERSION = 1
MANIFEST = "manifest.json"
DUMP = "database.dump"
FILES = "files"
CHUNK = 1024 * 1024
# DATABASES["default"]["OPTIONS"] that libpq also reads from its environment.
LIBPQ_OPTIONS = {
    "sslmode": "PGSSLMODE",
    "sslrootcert": "PGSSLROOTCERT",
    "sslcert": "PGSSLCERT",
    "sslkey": "PGSSLKEY",
    "passfile": "PGPASSFILE",
    "service": "PGSERVICE",
}


class BackupError(Exception):
    """A backup or restore that cannot go on; the message says why and what to do."""


@dataclass(frozen=True)
class FileReference:
    """One stored file named by one FileField of one row."""

    model: str  # app_label.model_name
    pk: object
    field: str
    name: str

    def __str__(self) -> str:
        return f"{self.model} pk={self.pk} field {self.field}: {self.name!r}"


def say(progress: Callable[[str], None] | None, message: str) -> None:
    """Tell the operator how far it got (the commands print it)."""
    if progress is not None:
        progress(message)


# --- What the database refers to ------------------------------------------------------------


def file_fields() -> list[tuple[type[models.Model], models.FileField]]:
    """Every FileField (ImageField included) of every installed concrete model."""
    found = []
    for model in apps.get_models():
        if model._meta.proxy:
            continue  # its table and fields are its concrete model's
        for field in model._meta.get_fields():
            if isinstance(field, models.FileField):
                found.append((model, field))
    return found


def file_references() -> list[FileReference]:
    """Every non-empty FileField value in the database, as the current transaction sees it."""
    references = []
    for model, field in file_fields():
        if field.storage is not default_storage:
            raise BackupError(
                _(
                    "%(field)s keeps its files in a storage of its own; backup copies the "
                    "default storage only."
                )
                % {"field": f"{model._meta.label_lower}.{field.name}"}
            )
        rows = (
            model._meta.base_manager.exclude(**{f"{field.attname}__isnull": True})
            .exclude(**{field.attname: ""})
            .order_by("pk")
            .values_list("pk", field.attname)
        )
        references += [
            FileReference(model._meta.label_lower, pk, field.name, name) for pk, name in rows
        ]
    return references


def relative_path(name: str) -> Path:
    """``name``'s place under a backup's ``files/``; refuses a name that would leave it."""
    parts = PurePosixPath(name).parts
    if (
        not name
        or "\x00" in name
        or "\\" in name
        or PurePosixPath(name).is_absolute()
        or any(part in ("", ".", "..") for part in parts)
    ):
        raise BackupError(
            _("Refusing the file name %(name)s: not a plain relative storage name.")
            % {"name": repr(name)}
        )
    return Path(*parts)


def sha256_of_path(path: Path) -> tuple[int, str]:
    digest, size = hashlib.sha256(), 0
    with open(path, "rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


def sha256_in_storage(name: str) -> tuple[int, str]:
    digest, size = hashlib.sha256(), 0
    with default_storage.open(name, "rb") as handle:
        for chunk in handle.chunks(CHUNK):
            digest.update(chunk)
            size += len(chunk)
    return size, digest.hexdigest()


# --- PostgreSQL -----------------------------------------------------------------------------


def require_postgresql() -> None:
    if connection.vendor != "postgresql":
        raise BackupError(
            _(
                "backup and restore need PostgreSQL; this deployment's database is "
                "%(vendor)s. The embedded demo (SQLite) keeps everything under its var/ folder "
                "(PWSCUP_VAR_DIR): stop it and copy that folder."
            )
            % {"vendor": connection.vendor}
        )


def _libpq_env() -> dict[str, str]:
    """This process's environment with the default database's connection settings as
    libpq's variables: the clients never see a password on their command line."""
    database = connection.settings_dict
    env = dict(os.environ)
    for variable, value in (
        ("PGHOST", database.get("HOST")),
        ("PGPORT", database.get("PORT")),
        ("PGUSER", database.get("USER")),
        ("PGPASSWORD", database.get("PASSWORD")),
        ("PGDATABASE", database.get("NAME")),
    ):
        if value:
            env[variable] = str(value)
    for option, variable in LIBPQ_OPTIONS.items():
        if database.get("OPTIONS", {}).get(option):
            env[variable] = str(database["OPTIONS"][option])
    return env


def run_client(program: str, arguments: list[str]) -> None:
    executable = shutil.which(program)
    if executable is None:
        raise BackupError(
            _(
                "%(program)s is not installed: install the PostgreSQL client of the server's "
                "major version (Debian: postgresql-client)."
            )
            % {"program": program}
        )
    finished = subprocess.run(  # noqa: S603 - fixed program, arguments built here
        [executable, *arguments], env=_libpq_env(), capture_output=True, text=True
    )
    if finished.returncode != 0:
        raise BackupError(
            _("%(program)s failed (%(code)d): %(error)s")
            % {"program": program, "code": finished.returncode, "error": finished.stderr[-2000:]}
        )


# --- Backup -----------------------------------------------------------------------------------


def _copy_files(references: list[FileReference], folder: Path, progress) -> list[dict]:
    """Copy each referenced file (once per name) into ``folder``; raise naming every
    reference whose file is missing."""
    by_name: dict[str, list[FileReference]] = {}
    for reference in references:
        by_name.setdefault(reference.name, []).append(reference)
    entries, missing = [], []
    for count, name in enumerate(sorted(by_name), start=1):
        target = folder / relative_path(name)
        target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            source = default_storage.open(name, "rb")
        except FileNotFoundError:
            missing += by_name[name]
            continue
        digest, size = hashlib.sha256(), 0
        with source, open(target, "xb", opener=_private_opener) as out:
            for chunk in source.chunks(CHUNK):
                digest.update(chunk)
                size += len(chunk)
                out.write(chunk)
        entries.append({"name": name, "size": size, "sha256": digest.hexdigest()})
        if count % 100 == 0:
            say(
                progress,
                _("%(count)d of %(total)d files copied") % {"count": count, "total": len(by_name)},
            )
    if missing:
        listed = "\n".join(f"  {reference}" for reference in missing)
        raise BackupError(
            _("%(count)d referenced file(s) are missing from the storage; no backup was written:")
            % {"count": len(missing)}
            + f"\n{listed}"
        )
    return entries


def _private_opener(path, flags):
    return os.open(path, flags, 0o600)


def _start_empty(directory: Path) -> bool:
    """Make sure ``directory`` exists and is empty; True when it was created here."""
    if directory.exists():
        if not directory.is_dir():
            raise BackupError(_("%(folder)s is not a folder.") % {"folder": directory})
        if any(directory.iterdir()):
            raise BackupError(
                _("%(folder)s is not empty: give a new or empty folder.") % {"folder": directory}
            )
        return False
    directory.mkdir(parents=True, mode=0o700)
    return True


def _remove_partial(directory: Path, *, created: bool) -> None:
    shutil.rmtree(directory / FILES, ignore_errors=True)
    for name in (DUMP, MANIFEST + ".part"):
        (directory / name).unlink(missing_ok=True)
    if created:
        directory.rmdir()


def backup_create(*, directory: Path, progress: Callable[[str], None] | None = None) -> dict:
    """Write a backup of the database and of every file it refers to into ``directory``
    (new or empty) and return its manifest. Consistent by construction: see the module's
    docstring. Raises ``BackupError``; then nothing is left in ``directory``."""
    require_postgresql()
    if connection.in_atomic_block:
        raise BackupError(_("A backup needs a transaction of its own: do not run it in one."))
    directory = Path(directory)
    created = _start_empty(directory)
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                # The first statement of the transaction: the whole backup sees one snapshot.
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                cursor.execute("SELECT pg_export_snapshot()")
                (snapshot,) = cursor.fetchone()
            references = file_references()
            say(
                progress,
                _("snapshot %(snapshot)s: %(count)d file references")
                % {"snapshot": snapshot, "count": len(references)},
            )
            run_client(
                "pg_dump",
                ["--format=custom", f"--snapshot={snapshot}", f"--file={directory / DUMP}"],
            )
            (directory / DUMP).chmod(0o600)
            say(progress, _("database dumped"))
            files = _copy_files(references, directory / FILES, progress)
        dump_size, dump_sha256 = sha256_of_path(directory / DUMP)
        manifest = {
            "format": FORMAT,
            "version": VERSION,
            "created_at": dt.datetime.now(dt.UTC).isoformat(),
            "database": {"file": DUMP, "size": dump_size, "sha256": dump_sha256},
            "storage": settings.STORAGES["default"]["BACKEND"],
            "files": files,
        }
        part = directory / (MANIFEST + ".part")
        with open(part, "x", encoding="utf-8", opener=_private_opener) as handle:
            json.dump(manifest, handle, indent=1, sort_keys=True)
            handle.flush()
            os.fsync(handle.fileno())
        part.replace(directory / MANIFEST)
    except BaseException:
        _remove_partial(directory, created=created)
        raise
    say(progress, _("%(count)d files copied") % {"count": len(files)})
    return manifest
