"""Restore a backup (``pwscup.core.backup``) into an empty deployment: ``manage.py restore``.

The restore refuses, changing nothing, a manifest of another format or version, a dump or
file whose SHA-256 differs from the manifest, a database that holds a row in any of the
platform's tables, or a storage that already holds one of the backup's names. It then saves
every file through the storage API under its exact name (read back and checked), restores
the dump with ``pg_restore`` in one transaction and empties the cache, which may hold
rankings of a former deployment under the same round numbers. A step that fails deletes
the files saved so far; the database is left as it was.
"""

import json
from collections.abc import Callable
from pathlib import Path

from django.apps import apps
from django.core.cache import cache
from django.core.files import File
from django.core.files.storage import default_storage
from django.db import connection
from django.utils.translation import gettext as _
from psycopg.conninfo import make_conninfo

from pwscup.core.backup import (
    DUMP,
    FILES,
    FORMAT,
    MANIFEST,
    VERSION,
    BackupError,
    relative_path,
    require_postgresql,
    run_client,
    say,
    sha256_in_storage,
    sha256_of_path,
)

# Rows ``migrate`` writes by itself into a new database: they do not make it non-empty (the
# page generation's row is made by its triggers when a data migration writes a counted
# table, even a statement that changes no row).
FILLED_BY_MIGRATE = frozenset(
    {"contenttypes.contenttype", "auth.permission", "accounts.pagegeneration"}
)


def database_tables_with_rows() -> list[str]:
    """The platform's tables in the configured database that hold a row (migrate's own
    content types and permissions aside)."""
    tables = set(connection.introspection.table_names())
    full = []
    for model in apps.get_models(include_auto_created=True):
        opts = model._meta
        if opts.proxy or opts.label_lower in FILLED_BY_MIGRATE or opts.db_table not in tables:
            continue
        if opts.base_manager.exists():
            full.append(opts.db_table)
    return sorted(set(full))


def _is_entry(entry) -> bool:
    return (
        isinstance(entry, dict)
        and isinstance(entry.get("size"), int)
        and not isinstance(entry.get("size"), bool)
        and entry["size"] >= 0
        and isinstance(entry.get("sha256"), str)
        and len(entry["sha256"]) == 64
        and all(c in "0123456789abcdef" for c in entry["sha256"])
    )


def manifest_read(*, directory: Path) -> dict:
    """The manifest of the backup in ``directory``, checked: this format, a version this
    release reads, well-formed entries, names that stay under ``files/``, no name twice."""
    path = Path(directory) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BackupError(
            _("%(path)s is missing: %(folder)s is not a backup, or one that did not finish.")
            % {"path": path, "folder": directory}
        ) from None
    except (UnicodeDecodeError, json.JSONDecodeError) as error:
        raise BackupError(
            _("%(path)s is not a readable manifest: %(error)s") % {"path": path, "error": error}
        ) from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise BackupError(_("%(path)s is not the manifest of a PWSCup backup.") % {"path": path})
    if manifest.get("version") != VERSION:
        raise BackupError(
            _(
                "%(path)s is in backup format version %(found)s; this release reads version "
                "%(version)s only. Restore it with the release that wrote it."
            )
            % {"path": path, "found": repr(manifest.get("version")), "version": VERSION}
        )
    database, files = manifest.get("database"), manifest.get("files")
    if not _is_entry(database) or database.get("file") != DUMP:
        raise BackupError(_("%(path)s: the database entry is malformed.") % {"path": path})
    if not isinstance(files, list) or not all(
        _is_entry(entry) and isinstance(entry.get("name"), str) for entry in files
    ):
        raise BackupError(_("%(path)s: the list of files is malformed.") % {"path": path})
    names = [entry["name"] for entry in files]
    for name in names:
        relative_path(name)
    if len(set(names)) != len(names):
        raise BackupError(_("%(path)s lists a file name twice.") % {"path": path})
    return manifest


def _check_copy(path: Path, entry: dict, what: str) -> None:
    if not path.is_file():
        raise BackupError(
            _("%(what)s is missing from the backup (%(path)s); nothing was restored.")
            % {"what": what, "path": path}
        )
    size, sha256 = sha256_of_path(path)
    if (size, sha256) != (entry["size"], entry["sha256"]):
        raise BackupError(
            _(
                "%(what)s does not match the manifest (SHA-256 %(sha256)s, %(size)d bytes; "
                "expected %(expected_sha256)s, %(expected_size)d bytes): the backup is damaged "
                "or was changed; nothing was restored."
            )
            % {
                "what": what,
                "sha256": sha256,
                "size": size,
                "expected_sha256": entry["sha256"],
                "expected_size": entry["size"],
            }
        )


def _require_empty_deployment(names: list[str]) -> None:
    full = database_tables_with_rows()
    if full:
        shown = ", ".join(full[:8])
        if len(full) > 8:
            shown = _("%(shown)s and %(more)d more") % {"shown": shown, "more": len(full) - 8}
        raise BackupError(
            _(
                "The database %(name)s is not empty (rows in %(shown)s): restore goes into an "
                "empty deployment only; nothing was changed."
            )
            % {"name": repr(connection.settings_dict.get("NAME")), "shown": shown}
        )
    present = [name for name in names if default_storage.exists(name)]
    if present:
        shown = ", ".join(repr(name) for name in present[:5])
        raise BackupError(
            _(
                "The storage already holds %(count)d of the backup's files (%(shown)s): "
                "restore goes into an empty deployment only; nothing was changed."
            )
            % {"count": len(present), "shown": shown}
        )


def _save_file(entry: dict, path: Path, saved: list[str]) -> None:
    name = entry["name"]
    with open(path, "rb") as handle:
        stored = default_storage.save(name, File(handle, name=name))
    saved.append(stored)
    if stored != name:
        raise BackupError(
            _("The storage kept %(name)s as %(stored)s; restore stopped.")
            % {"name": repr(name), "stored": repr(stored)}
        )
    if sha256_in_storage(name) != (entry["size"], entry["sha256"]):
        raise BackupError(
            _("%(name)s reads back from the storage changed; restore stopped.")
            % {"name": repr(name)}
        )


def backup_restore(*, directory: Path, progress: Callable[[str], None] | None = None) -> dict:
    """Restore the backup in ``directory`` into this (empty) deployment and return its
    manifest. Refuses, changing nothing, a damaged backup or a deployment that is not
    empty; a step that fails deletes the files saved so far and leaves the database as
    it was (``pg_restore --single-transaction``). Raises ``BackupError``."""
    require_postgresql()
    directory = Path(directory)
    manifest = manifest_read(directory=directory)
    _check_copy(directory / DUMP, manifest["database"], _("The database dump"))
    files = manifest["files"]
    paths = [directory / FILES / relative_path(entry["name"]) for entry in files]
    for entry, path in zip(files, paths, strict=True):
        _check_copy(path, entry, _("The file %(name)s") % {"name": repr(entry["name"])})
    say(progress, _("the dump and %(count)d files match the manifest") % {"count": len(files)})
    _require_empty_deployment([entry["name"] for entry in files])
    saved: list[str] = []
    try:
        for count, (entry, path) in enumerate(zip(files, paths, strict=True), start=1):
            _save_file(entry, path, saved)
            if count % 100 == 0:
                say(
                    progress,
                    _("%(count)d of %(total)d files saved") % {"count": count, "total": len(files)},
                )
        say(progress, _("%(count)d files saved") % {"count": len(files)})
        # --clean --if-exists: a database that ``migrate`` prepared (empty, checked above)
        # gets the dump's tables in place of its own; in one transaction, all or nothing.
        run_client(
            "pg_restore",
            [
                *("--no-owner", "--no-privileges", "--clean", "--if-exists"),
                *("--single-transaction", "--exit-on-error"),
                "--dbname=" + make_conninfo(dbname=connection.settings_dict["NAME"]),
                str(directory / DUMP),
            ],
        )
    except BaseException:
        for name in saved:
            try:
                default_storage.delete(name)
            except Exception:  # noqa: BLE001, S110 - the first error is the one to report
                pass
        raise
    finally:
        connection.close()  # the tables it knew were replaced
    say(progress, "database restored")
    cache.clear()
    return manifest
