"""The files of a scorer round a participant downloads: the round's public pack (every team
member and the organizers), a team's own slot folder (a ZIP made now of the slots pack's
members under ``team_NN/``: a team gets its own only), a frozen target's public ZIP (what the
program published of the release: participants, once frozen), and a team's own uploads as
uploaded with their detailed results page (its team and the organizers). The hidden packs
(reference, truth) are never served here: they are the console's. Visitors get no data."""

import tempfile
import zipfile
from pathlib import Path

from django.http import FileResponse, Http404, HttpResponse

from pwscup.accounts.access import kind_view
from pwscup.core.files import private_file_response
from pwscup.scorer import KEY, selectors
from pwscup.scorer.models import DataPack, TeamSlot
from pwscup.scorer.views.common import own_upload, published_target, scorer_of
from pwscup.submissions.round_pages import require_participant

ZIP = "application/zip"
# A slot folder is copied member by member into a new ZIP: bounded before it is read.
SLOT_MAX_BYTES = 512 * 1024**2
# The program's detailed_results.html is at most 8 MB (docs/scorer.md).
DETAIL_MAX_BYTES = 8 * 1024**2
# The detailed page is the organizer's program's HTML: no script, no request anywhere, no
# form, in a unique origin (``sandbox``), its inline styles and data: images only.
DETAIL_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"
KEPT_SUFFIXES = {".csv": "text/csv; charset=utf-8", ".zip": ZIP, ".json": "application/json"}


@kind_view(KEY)
def public_pack(request, access):
    """The round's files for every team (``DataPack.Role.PUBLIC``), of the team's data
    choice (an organizer without a team: the pack without a choice)."""
    scorer = scorer_of(access)
    require_participant(access)
    choice = selectors.team_choice_key(scorer=scorer, team=access.team)
    pack = selectors.current_pack(scorer=scorer, role=DataPack.Role.PUBLIC, choice=choice)
    if pack is None:
        raise Http404("No public pack.")
    return private_file_response(pack.file, "public.zip", content_type=ZIP)


def _slot_zip(pack: DataPack, slot: TeamSlot):
    """A ZIP of the pack's members under the slot's folder, in a temporary file."""
    names = set(selectors.slot_members(pack=pack, slot=slot))
    if not names:
        raise Http404("No folder for this team.")
    out = tempfile.SpooledTemporaryFile(max_size=8 * 1024**2)
    with pack.file.open("rb") as stored, zipfile.ZipFile(stored) as source:
        infos = [info for info in source.infolist() if info.filename in names]
        if sum(info.file_size for info in infos) > SLOT_MAX_BYTES:
            raise Http404("The folder is too large to serve here.")
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for info in infos:
                with source.open(info) as member, target.open(info.filename, "w") as copy:
                    while chunk := member.read(1024 * 1024):
                        copy.write(chunk)
    out.seek(0)
    return out


@kind_view(KEY)
def slot_folder(request, access, team_slug: str):
    """A team's own folder of the slots pack (an organizer: any team's)."""
    scorer = scorer_of(access)
    require_participant(access)
    if not access.is_organizer and access.team.slug != team_slug:
        raise Http404("Not your folder.")
    slot = (
        TeamSlot.objects.filter(scorer=scorer, team__slug=team_slug).select_related("team").first()
    )
    choice = selectors.team_choice_key(scorer=scorer, team=slot.team if slot else None)
    pack = selectors.current_pack(scorer=scorer, role=DataPack.Role.SLOTS, choice=choice)
    if slot is None or pack is None:
        raise Http404("No folder.")
    try:
        folder = _slot_zip(pack, slot)
    except (zipfile.BadZipFile, OSError) as error:
        raise Http404("The slots pack cannot be read.") from error
    return FileResponse(folder, as_attachment=True, filename=f"{slot.folder}.zip", content_type=ZIP)


@kind_view(KEY)
def target_public(request, access, team_slug: str):
    """A frozen target's public ZIP (what the program published of the release)."""
    target = published_target(access, team_slug)
    return private_file_response(
        target.release.public, f"{target.team.slug}_public.zip", content_type=ZIP
    )


@kind_view(KEY)
def upload_file(request, access, kind: str, pk: int):
    """One of the team's releases or attacks as uploaded."""
    upload = own_upload(access, kind, pk)
    suffix = Path(upload.original_filename or "").suffix.lower()
    content_type = KEPT_SUFFIXES.get(suffix, "application/octet-stream")
    name = (
        f"{upload.team.slug}_{kind[:-1]}_{upload.number}{suffix if suffix in KEPT_SUFFIXES else ''}"
    )
    return private_file_response(upload.file, name, content_type=content_type)


@kind_view(KEY)
def release_public(request, access, pk: int):
    """What the program published of one of the team's releases (before a freeze too)."""
    release = own_upload(access, "releases", pk)
    return private_file_response(
        release.public, f"{release.team.slug}_release_{release.number}_public.zip", content_type=ZIP
    )


@kind_view(KEY)
def upload_detail(request, access, kind: str, pk: int):
    """The program's ``detailed_results.html`` of an upload, in a sandbox of its own."""
    upload = own_upload(access, kind, pk)
    if not upload.detail:
        raise Http404("No detailed results.")
    with upload.detail.open("rb") as handle:
        content = handle.read(DETAIL_MAX_BYTES + 1)
    if len(content) > DETAIL_MAX_BYTES:
        raise Http404("Detailed results too large.")
    response = HttpResponse(content, content_type="text/html; charset=utf-8")
    response["Content-Security-Policy"] = DETAIL_CSP
    response["X-Content-Type-Options"] = "nosniff"
    response["Referrer-Policy"] = "no-referrer"
    response["Cache-Control"] = "private, no-store"
    return response
