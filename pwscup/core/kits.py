"""Starter kits: the ZIP every kind hands its teams (one owner for how a kit is packed).

A kit holds what the kind puts in (the team's data, the configuration, a bilingual README,
example scripts) and, always, the participants' toolkit wheel (``pwscup.core.toolkit``): the
README says ``pip install`` it, and the examples then run anywhere, with no copy of this
repository. The archive spools to disk past 32 MiB, so a kit with a large table is never
held in memory whole.
"""

import shutil
import tempfile
import zipfile
import zoneinfo
from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.http import FileResponse
from django.utils import timezone

from pwscup.core.files import opened
from pwscup.core.toolkit import install_argument, toolkit_wheel, wheel_filename

_SPOOL = 32 * 2**20


@dataclass(frozen=True)
class KitFile:
    """One member of a kit: ``content`` is ``str`` / ``bytes`` or a stored ``FieldFile``
    (copied in 1 MiB pieces)."""

    name: str
    content: object


def kit_archive(files: Iterable[KitFile]):
    """The kit as a rewound binary file: ``files`` in order, then the toolkit wheel."""
    archive = tempfile.SpooledTemporaryFile(max_size=_SPOOL)
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for member in files:
            if isinstance(member.content, str | bytes):
                zf.writestr(member.name, member.content)
            else:
                with opened(member.content) as source, zf.open(member.name, "w") as target:
                    shutil.copyfileobj(source, target, 2**20)
        wheel = toolkit_wheel(settings.PWSCUP_TOOLKIT_DIR)
        zf.write(wheel, wheel.name)
    archive.seek(0)
    return archive


def kit_response(files: Iterable[KitFile], filename: str) -> FileResponse:
    """The kit as a download (callers have checked who may have it)."""
    return FileResponse(
        kit_archive(files), as_attachment=True, filename=filename, content_type="application/zip"
    )


def round_kit_name(round_, *, kind: str = "") -> str:
    """What a round's kit is called when downloaded: ``<round>_kit.zip``, or with the
    kind's name for a kind whose kits say it (``r1_dp_kit.zip``)."""
    return f"{round_.slug}_{kind}_kit.zip" if kind else f"{round_.slug}_kit.zip"


def kit_readme_context(round_, *, who: str, now=None, extra: str = "") -> dict:
    """What every kit's README opens with: the round's name, who it was made for and when
    (in the round's time zone), the toolkit wheel's file name and, for a kind that installs
    one of the toolkit's ``extra`` dependencies, the ``pip install`` argument."""
    now = now or timezone.now()
    context = {
        "round_name": round_.name,
        "who": who,
        "made_at": timezone.localtime(now, zoneinfo.ZoneInfo(round_.timezone)).strftime(
            "%Y-%m-%d %H:%M %Z"
        ),
        "wheel": wheel_filename(),
    }
    if extra:
        context["install"] = install_argument(extra)
    return context
