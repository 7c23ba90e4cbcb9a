"""The files of a scorer round a participant downloads from its pages: a team's own slot
folder (a ZIP made now of the slots pack's members under ``team_NN/``: a team gets its own
only), a frozen target's public ZIP (what the program published of the release:
participants, once frozen), and a team's own uploads as uploaded with their detailed
results page (its team and the organizers). The round's public pack is the declared
endpoint's (``api/files.py``), at the same address among the pages. The hidden packs
(reference, truth) are never served here: they are the console's. Visitors get no data."""

from pathlib import Path

from django.http import FileResponse, Http404, HttpResponse

from pwscup.accounts.access import kind_view
from pwscup.core.files import private_file_response
from pwscup.scorer import KEY
from pwscup.scorer.api.files import (
    release_public_name,
    slot_zip,
    slots_pack,
    target_public_response,
)
from pwscup.scorer.models import TeamSlot
from pwscup.scorer.views.common import own_upload, published_target, scorer_part
from pwscup.submissions.round_pages import require_participant

ZIP = "application/zip"
# The program's detailed_results.html is at most 8 MB (docs/scorer.md).
DETAIL_MAX_BYTES = 8 * 1024**2
# The detailed page is the organizer's program's HTML: no script, no request anywhere, no
# form, in a unique origin (``sandbox``), its inline styles and data: images only.
DETAIL_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"
KEPT_SUFFIXES = {".csv": "text/csv; charset=utf-8", ".zip": ZIP, ".json": "application/json"}


@kind_view(KEY)
def slot_folder(request, access, team_slug: str):
    """A team's own folder of the slots pack (an organizer: any team's)."""
    scorer = scorer_part(access)
    require_participant(access)
    if not access.is_organizer and access.team.slug != team_slug:
        raise Http404("Not your folder.")
    slot = (
        TeamSlot.objects.filter(scorer=scorer, team__slug=team_slug).select_related("team").first()
    )
    if slot is None:
        raise Http404("No folder.")
    pack = slots_pack(scorer, slot.team)
    folder = slot_zip(pack=pack, slot=slot, keep_folder=True)
    return FileResponse(folder, as_attachment=True, filename=f"{slot.folder}.zip", content_type=ZIP)


@kind_view(KEY)
def target_public(request, access, team_slug: str):
    """A frozen target's public ZIP (what the program published of the release; a team gets
    no file under ``for/`` of another team's slot: ``target_public_response``)."""
    return target_public_response(published_target(access, team_slug), access)


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
    return private_file_response(release.public, release_public_name(release), content_type=ZIP)


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
