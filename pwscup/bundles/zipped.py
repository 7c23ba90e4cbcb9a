"""A bundle's ZIP: written deterministically, read safely.

Nothing is ever extracted to disk: each member is read into memory with a byte budget (the
sizes a ZIP declares are never trusted, so a zip bomb stops at the limit), and only names
that are plain relative paths inside the bundle are accepted.
"""

import io
import re
import stat
import zipfile
import zlib
from dataclasses import dataclass

from django.core.exceptions import ValidationError
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext as _

# Every member carries this time (the earliest a ZIP can hold): the same competition gives
# the same bytes whenever it is exported.
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
CHUNK = 1024 * 1024
ENCRYPTED_FLAG = 0x1
DRIVE = re.compile(r"^[A-Za-z]:")


@dataclass(frozen=True)
class ZipLimits:
    upload_bytes: int  # the ZIP itself
    total_bytes: int  # every member decompressed, together
    files: int  # members (directories included)


def zip_write(members: dict[str, bytes]) -> bytes:
    """A ZIP of ``members`` (name → bytes), sorted by name, deflated, each with the same
    fixed time and mode: equal members give equal bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name in sorted(members):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix, so that the mode below is read as one
            info.external_attr = (stat.S_IFREG | 0o644) << 16
            archive.writestr(info, members[name], compresslevel=9)
    return buffer.getvalue()


def _name_problem(name: str) -> str | None:
    """Why a member's name is refused (``None``: it is a plain relative path)."""
    if not name or name.startswith("/") or DRIVE.match(name):
        return _("an absolute path")
    if "\\" in name:
        return _("a backslash")
    parts = name.rstrip("/").split("/")
    if ".." in parts:
        return _("a parent folder (..)")
    if "" in parts or "." in parts or any(ord(c) < 32 for c in name):
        return _("an empty part, a dot part or a control character")
    return None


def _size(file) -> int:
    size = getattr(file, "size", None)
    if isinstance(size, int):
        return size
    position = file.tell()
    file.seek(0, io.SEEK_END)
    end = file.tell()
    file.seek(position)
    return end


def zip_read(file, *, limits: ZipLimits) -> dict[str, bytes]:
    """Every file member of the ZIP ``file`` (a binary file object), name → bytes.

    Refuses (``ValidationError`` naming the member) a file larger than
    ``limits.upload_bytes`` before reading it, a file that is not a ZIP, more members than
    ``limits.files``, a member whose name is absolute, holds ``..``, a backslash or a drive
    letter, a name given twice, a symbolic link, an encrypted member, and more than
    ``limits.total_bytes`` decompressed (checked on the declared sizes first, then while
    reading, on the bytes actually produced). Directory entries are accepted and skipped.
    """
    size = _size(file)
    if size > limits.upload_bytes:
        raise ValidationError(
            _("The bundle is %(size)s; the limit is %(limit)s.")
            % {"size": filesizeformat(size), "limit": filesizeformat(limits.upload_bytes)}
        )
    if size == 0:
        raise ValidationError(_("The bundle is empty: choose the ZIP file of a bundle."))
    try:
        file.seek(0)
        archive = zipfile.ZipFile(file)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError):
        raise ValidationError(_("The bundle is not a ZIP file (or it is damaged).")) from None
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.files:
            raise ValidationError(
                _("The bundle holds %(count)s members; the limit is %(limit)s.")
                % {"count": len(infos), "limit": limits.files}
            )
        seen = set()
        for info in infos:
            shown = repr(info.filename)[:80]
            problem = _name_problem(info.filename)
            if problem:
                raise ValidationError(
                    _("The bundle's member %(name)s is refused: its name has %(problem)s.")
                    % {"name": shown, "problem": problem}
                )
            key = info.filename.rstrip("/")
            if key in seen:
                raise ValidationError(
                    _("The bundle holds the member %(name)s twice.") % {"name": shown}
                )
            seen.add(key)
            if stat.S_ISLNK(info.external_attr >> 16):
                raise ValidationError(
                    _("The bundle's member %(name)s is a symbolic link: links are refused.")
                    % {"name": shown}
                )
            if info.flag_bits & ENCRYPTED_FLAG:
                raise ValidationError(
                    _("The bundle's member %(name)s is encrypted: bundles are not encrypted.")
                    % {"name": shown}
                )
        declared = sum(info.file_size for info in infos)
        if declared > limits.total_bytes:
            raise ValidationError(_too_large(limits))
        members = {}
        budget = limits.total_bytes
        for info in infos:
            if info.is_dir():
                continue
            members[info.filename], budget = _read_member(archive, info, budget, limits)
        return members


def _too_large(limits: ZipLimits) -> str:
    return _("The bundle's files take more than %(limit)s once decompressed.") % {
        "limit": filesizeformat(limits.total_bytes)
    }


def _read_member(archive, info, budget: int, limits: ZipLimits) -> tuple[bytes, int]:
    chunks = []
    try:
        with archive.open(info) as member:
            while chunk := member.read(min(CHUNK, budget + 1)):
                budget -= len(chunk)
                if budget < 0:
                    raise ValidationError(_too_large(limits))
                chunks.append(chunk)
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, NotImplementedError, RuntimeError):
        raise ValidationError(
            _(
                "The bundle's member %(name)s cannot be read: the ZIP is damaged or uses an "
                "unknown compression."
            )
            % {"name": repr(info.filename)[:80]}
        ) from None
    return b"".join(chunks), budget
