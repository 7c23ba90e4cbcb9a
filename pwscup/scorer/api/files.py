"""The files a scorer round serves through the API: the round's public pack (every team and
the organizers), a team's own slot folder of the slots pack (never another team's), a team's
own uploads as uploaded and what the program published of them (its team's only), and once
the releases are frozen each target's public ZIP (what the program put in ``output/public``;
to the teams of the competition and the organizers).

The hidden packs (``DataPack.HIDDEN``: the reference data and the truth folder) have no
address here: they reach the scorer's sandbox only."""

import tempfile
import zipfile

from django.http import FileResponse, Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse

from pwscup.core.files import private_file_response
from pwscup.core.rest import errors
from pwscup.core.rest_schemas import JSON_OBJECT
from pwscup.scorer import selectors
from pwscup.scorer.api.common import TARGETS, downloadable_targets, scorer_part
from pwscup.scorer.models import DataPack, Release, Target
from pwscup.submissions.round_api import (
    api_download,
    require_participant,
    require_team,
    target_download,
)
from pwscup.submissions.round_endpoints import RoundEndpoints

BINARY_FILE = OpenApiResponse(OpenApiTypes.BINARY, description=gettext_lazy("The file as stored."))
ZIP_FILE = OpenApiResponse(OpenApiTypes.BINARY, description=gettext_lazy("A ZIP archive."))
ZIP = "application/zip"
OCTETS = "application/octet-stream"
PUBLIC_NAME = "public.zip"


def slot_name(team) -> str:
    return f"{team.slug}_slot.zip"


def target_public_name(target) -> str:
    return f"{target.team.slug}_public.zip"


def release_public_name(release) -> str:
    return f"{release.team.slug}_release_{release.number}_public.zip"


def upload_file_response(upload) -> FileResponse:
    """A team's own release or attack, as uploaded (callers checked it is the team's)."""
    name = upload.original_filename or upload.file.name.rsplit("/", 1)[-1]
    return private_file_response(upload.file, name, content_type=OCTETS)


# A slot folder is copied member by member into a new ZIP: bounded before it is read.
SLOT_MAX_BYTES = 512 * 1024**2


def slot_zip(*, pack: DataPack | None, slot, keep_folder: bool):
    """The team's folder ``team_NN/`` of the slots pack as a ZIP of its own, in a temporary
    file: only the members under the team's folder, never another slot's; ``keep_folder``:
    the names keep the folder's prefix (the page's ``team_NN.zip``), else it is dropped (the
    API's). 404 for an empty folder, a folder over ``SLOT_MAX_BYTES`` or a pack that cannot
    be read."""
    names = set(selectors.slot_members(pack=pack, slot=slot))
    if not names:
        raise Http404(_("This team has no folder of its own in this round."))
    cut = 0 if keep_folder else len(f"{slot.folder}/")
    try:
        return _zip_part(pack.file, names, cut=cut)
    except (zipfile.BadZipFile, OSError) as error:
        raise Http404(_("The slots pack cannot be read.")) from error


def _zip_part(field, names: set[str], *, cut: int = 0):
    """The members ``names`` of the stored ZIP ``field`` as a ZIP of their own in a temporary
    file, copied a megabyte at a time, each name without its first ``cut`` characters; 404
    over ``SLOT_MAX_BYTES``."""
    out = tempfile.SpooledTemporaryFile(max_size=8 * 1024**2)
    with field.open("rb") as stored, zipfile.ZipFile(stored) as source:
        infos = [info for info in source.infolist() if info.filename in names]
        if sum(info.file_size for info in infos) > SLOT_MAX_BYTES:
            raise Http404(_("The folder is too large to serve here."))
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
            for info in infos:
                with source.open(info) as member, target.open(info.filename[cut:], "w") as copy:
                    while chunk := member.read(1024 * 1024):
                        copy.write(chunk)
    out.seek(0)
    return out


# A release's public files under ``for/<slot folder>/`` are the team of that slot's only
# (PWSCup 2021's test set per target and attacker; docs/scorer.md).
PER_TEAM = "for/"


def target_public_response(target, access) -> FileResponse:
    """A target's public ZIP as the caller may have it: whole for an organizer; for a team,
    every file but those under ``for/`` of another team's slot (``PER_TEAM``). A release
    that wrote nothing under ``for/`` is served as stored. 404 for a release that
    published no file."""
    if not target.release.public:
        raise Http404(_("This release published no file."))
    names = list(target.release.public_names)
    if access.is_organizer or not any(name.startswith(PER_TEAM) for name in names):
        return private_file_response(
            target.release.public, target_public_name(target), content_type=ZIP
        )
    slot = selectors.slot_of(scorer=target.scorer, team=access.team)
    mine = f"{PER_TEAM}{slot.folder}/" if slot is not None else None
    keep = {n for n in names if not n.startswith(PER_TEAM) or (mine and n.startswith(mine))}
    try:
        part = _zip_part(target.release.public, keep)
    except (zipfile.BadZipFile, OSError) as error:
        raise Http404(_("This release published no file.")) from error
    return FileResponse(
        part, as_attachment=True, filename=target_public_name(target), content_type=ZIP
    )


def downloads(access, scorer) -> list[dict]:
    """The files the caller (a participant) may download now, ``[{"name", "label", "url"}]``."""
    found = []
    if _public_pack(scorer, access.team) is not None:
        found.append(api_download(access, "scorer-public", PUBLIC_NAME, _("Files for every team")))
    team = access.team
    if team is not None and _slot_members(scorer, team):
        found.append(api_download(access, "scorer-slot", slot_name(team), _("Your team's folder")))
    if team is not None and (release := _own_published(scorer, team)) is not None:
        label = _("Your release's public files (#%(number)s)") % {"number": release.number}
        found.append(
            api_download(
                access, "scorer-release-public", release_public_name(release), label, release.pk
            )
        )
    if scorer.frozen_at is not None:
        for target in downloadable_targets(access, scorer):
            found.append(
                target_download(
                    access,
                    "scorer-target-public",
                    target_public_name(target),
                    _("Release of %(team)s") % {"team": target.team.name},
                    target.team,
                )
            )
    return found


def _own_published(scorer, team) -> Release | None:
    """The team's release whose public files the others see or will see: once frozen its
    target's, before its final one (``None``: none, or it published no file)."""
    if scorer.frozen_at is not None:
        target = Target.objects.filter(scorer=scorer, team=team).select_related("release").first()
        release = target.release if target is not None else None
    else:
        release = selectors.final_release(scorer=scorer, team=team)
    return release if release is not None and release.public else None


def _public_pack(scorer, team):
    """The public pack of the team's data choice (no team: the one without a choice)."""
    choice = selectors.team_choice_key(scorer=scorer, team=team)
    return selectors.current_pack(scorer=scorer, role=DataPack.Role.PUBLIC, choice=choice)


def slots_pack(scorer, team):
    """The slots pack of the team's data choice (``None``: none)."""
    choice = selectors.team_choice_key(scorer=scorer, team=team)
    return selectors.current_pack(scorer=scorer, role=DataPack.Role.SLOTS, choice=choice)


def _slot_members(scorer, team) -> list[str]:
    pack = slots_pack(scorer, team)
    return selectors.slot_members(pack=pack, slot=selectors.slot_of(scorer=scorer, team=team))


ZIP_ANSWER = {(200, ZIP): ZIP_FILE, **errors(401, 404)}

# Served under /api/ by the API (``ScorerKind.api_round_endpoints``).
ROUND_ENDPOINTS = RoundEndpoints(part=scorer_part, named_operation=True, responses=ZIP_ANSWER)


@ROUND_ENDPOINTS.declare(
    "scorer/public.zip",
    "scorer-public",
    page_name="public_pack",
    summary=gettext_lazy("The round's files for every team (the public pack)"),
)
def public_pack(request, access, scorer):
    """The round's files for every team (``DataPack.Role.PUBLIC``), of the team's data
    choice (an organizer without a team: the pack without a choice)."""
    require_participant(access)
    pack = _public_pack(scorer, access.team)
    if pack is None:
        raise Http404(_("The organizers have not given files for every team yet."))
    return private_file_response(pack.file, PUBLIC_NAME, content_type=ZIP)


@ROUND_ENDPOINTS.declare(
    "scorer/slot.zip",
    "scorer-slot",
    summary=gettext_lazy("My team's own folder of the slots pack, as a ZIP"),
)
def slot(request, access, scorer):
    team = require_team(access)
    pack = slots_pack(scorer, team)
    slot = selectors.slot_of(scorer=scorer, team=team)
    folder = slot_zip(pack=pack, slot=slot, keep_folder=False)
    return FileResponse(folder, as_attachment=True, filename=slot_name(team), content_type=ZIP)


ROUND_ENDPOINTS.declare_targets(
    "scorer",
    TARGETS,
    responses={200: JSON_OBJECT, **errors(401, 404)},
    summary=gettext_lazy(
        "The other teams' frozen releases (targets), with their public ZIP's address"
    ),
)


def _target_public(request, access, part, team_slug):
    """A target's public ZIP as the caller may have it (``target_public_response``)."""
    return target_public_response(TARGETS.named(access, part, team_slug), access)


ROUND_ENDPOINTS.declare(
    "scorer/targets/<str:team_slug>/public.zip",
    "scorer-target-public",
    _target_public,
    summary=gettext_lazy("A target's public files (what its release published at the freeze)"),
)


@ROUND_ENDPOINTS.declare(
    "scorer/releases/<int:pk>/public.zip",
    "scorer-release-public",
    summary=gettext_lazy(
        "What the program published of one of my team's releases (its public files: what the "
        "attackers get of it once it is frozen)"
    ),
)
def release_public(request, access, scorer, pk):
    """One of the caller's team's releases' public files, whole (another team's: 404)."""
    release = Release.objects.filter(scorer=scorer, team=require_team(access), pk=pk).first()
    if release is None or not release.public:
        raise Http404(_("This release published no file."))
    return private_file_response(release.public, release_public_name(release), content_type=ZIP)
