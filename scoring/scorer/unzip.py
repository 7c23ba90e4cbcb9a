"""Unpack a ZIP (the organizer's program, a team's submission) to a folder, safely.

The sizes a ZIP declares are never trusted: each member is copied with a byte budget, so a
zip bomb stops at the limit. Only plain relative names are accepted (no absolute path, no
``..``, no backslash or drive letter, no control character), each once; symbolic links and
encrypted members are refused. Files are written 0644 (0755 when the ZIP marks them
executable), folders 0755, so the sandbox's unprivileged user reads them.
"""

from __future__ import annotations

import os
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

from scoring.messages import clip
from scoring.scorer.errors import ScorerError

CHUNK = 1024 * 1024
ENCRYPTED_FLAG = 0x1
DRIVE = re.compile(r"^[A-Za-z]:")
# The longest name a file system takes for one part of a path (Linux's NAME_MAX, in bytes),
# and a bound on the whole name well within PATH_MAX once under the folder it is unpacked to.
PART_BYTES, NAME_BYTES = 255, 1024
ZIP_MAGIC = (b"PK\x03\x04", b"PK\x05\x06")


@dataclass(frozen=True)
class UnzipLimits:
    """How much a ZIP may hold: its members (folders included) and their bytes together."""

    members: int = 2_000
    total_bytes: int = 512 * 1024 * 1024


def looks_like_zip(path: Path) -> bool:
    """Whether ``path`` starts as a ZIP does (a local header, or the end record of an empty one)."""
    with open(path, "rb") as file:
        return file.read(4) in ZIP_MAGIC


def _name_problem(name: str) -> str | None:
    """Why a member's name is refused (``None``: a plain relative path)."""
    if not name or name.startswith("/") or DRIVE.match(name):
        return "an absolute path"
    if "\\" in name:
        return "a backslash in its name"
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        return "a parent folder (..) in its name"
    if "" in parts or "." in parts or any(ord(c) < 32 for c in name):
        return "an empty part, a dot part or a control character in its name"
    encoded = [part.encode("utf-8", "surrogatepass") for part in parts]
    if (
        any(len(part) > PART_BYTES for part in encoded)
        or len(name.encode("utf-8", "surrogatepass")) > NAME_BYTES
    ):
        return "a name too long (a part over 255 bytes, or over 1,024 bytes in all)"
    return None


def _check_members(infos: list[zipfile.ZipInfo], what: str, limits: UnzipLimits) -> None:
    if len(infos) > limits.members:
        raise ScorerError("scorer.zip.too_many", what=what, count=len(infos), limit=limits.members)
    seen: set[str] = set()
    for info in infos:
        problem = _name_problem(info.filename)
        key = info.filename.rstrip("/")
        if problem is None and key in seen:
            problem = "it is given twice"
        elif problem is None and stat.S_ISLNK(info.external_attr >> 16):
            problem = "a symbolic link"
        elif problem is None and info.flag_bits & ENCRYPTED_FLAG:
            problem = "encrypted"
        if problem:
            raise ScorerError(
                "scorer.zip.bad_member", what=what, name=repr(clip(info.filename)), problem=problem
            )
        seen.add(key)
    if sum(info.file_size for info in infos) > limits.total_bytes:
        raise ScorerError("scorer.zip.too_large", what=what, limit=f"{limits.total_bytes:,}")


def member_names(source, *, what: str, limits: UnzipLimits) -> list[str]:
    """The names of the files (not the folders) of the ZIP ``source`` (a path or a binary
    file), checked as :func:`unzip` checks them before writing anything; nothing is
    decompressed. Raises :class:`ScorerError` (``scorer.zip.*``) as :func:`unzip` does."""
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise ScorerError("scorer.zip.not_zip", what=what) from None
    with archive:
        infos = archive.infolist()
        _check_members(infos, what, limits)
        return [info.filename for info in infos if not info.is_dir()]


def unzip(source: Path, destination: Path, *, what: str, limits: UnzipLimits) -> list[str]:
    """Unpack the ZIP ``source`` into the folder ``destination`` (made if missing).

    Returns the names of the files written. Raises :class:`ScorerError` (``scorer.zip.*``,
    naming ``what`` and the member) for a file that is not a ZIP, too many members, a
    refused name, a link, an encrypted member, or more than ``limits.total_bytes`` once
    decompressed (declared sizes first, then the bytes actually produced).
    """
    try:
        archive = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise ScorerError("scorer.zip.not_zip", what=what) from None
    with archive:
        infos = archive.infolist()
        _check_members(infos, what, limits)
        destination.mkdir(parents=True, exist_ok=True)
        budget = limits.total_bytes
        written = []
        for info in infos:
            target = destination.joinpath(*info.filename.rstrip("/").split("/"))
            try:
                (target if info.is_dir() else target.parent).mkdir(
                    mode=0o755, parents=True, exist_ok=True
                )
            except (FileExistsError, NotADirectoryError):
                raise _twice(info, what) from None
            if info.is_dir():
                continue
            budget = _copy_member(archive, info, target, budget, what, limits)
            written.append(info.filename)
        return written


def _copy_member(archive, info, target: Path, budget: int, what: str, limits: UnzipLimits) -> int:
    executable = bool((info.external_attr >> 16) & 0o100)
    try:
        with archive.open(info) as member, open(target, "xb") as out:
            while chunk := member.read(min(CHUNK, budget + 1)):
                budget -= len(chunk)
                if budget < 0:
                    raise ScorerError(
                        "scorer.zip.too_large", what=what, limit=f"{limits.total_bytes:,}"
                    )
                out.write(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError):
        raise ScorerError(
            "scorer.zip.unreadable", what=what, name=repr(clip(info.filename))
        ) from None
    except (FileExistsError, IsADirectoryError):
        raise _twice(info, what) from None
    os.chmod(target, 0o755 if executable else 0o644)
    return budget


def _twice(info: zipfile.ZipInfo, what: str) -> ScorerError:
    """A file and a folder of one name ("a" then "a/b"): the name is given twice."""
    return ScorerError(
        "scorer.zip.bad_member",
        what=what,
        name=repr(clip(info.filename)),
        problem="it is given twice",
    )
