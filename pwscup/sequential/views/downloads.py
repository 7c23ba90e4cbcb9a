"""The files of the sequential round a participant or an organizer downloads: ``T(j).csv``
and ``master.csv`` (the future hidden in online mode), ``config.json`` for the local check,
the starter kit (ZIP, with the toolkit wheel) and the sample release, a release as
uploaded, its per-person risk table, and the published files of a target."""

import json

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404

from pwscup.accounts.access import kind_view
from pwscup.core.exports import csv_bytes_response
from pwscup.core.kits import kit_response
from pwscup.sequential import KEY, kit, selectors, services
from pwscup.sequential.views.common import attack_target, own_release
from pwscup.submissions.round_pages import refused_as_404, require_participant, require_team


@kind_view(KEY)
def step_table(request, access, step: int):
    """``T(j).csv`` of the team's master: a step the team may see (online: not the future)."""
    sequential = selectors.sequential_of(round=access.round)
    team = require_team(access)
    if not 1 <= step <= selectors.visible_steps(sequential=sequential):
        raise Http404("Not yet.")
    with refused_as_404():
        content = services.step_table_bytes(sequential=sequential, team=team, step=step)
    return csv_bytes_response(content, f"T{step}.csv")


@kind_view(KEY)
def config_download(request, access):
    """The round's configuration as ``config.json`` (for ``python -m scoring seq check``);
    the pool's draw parameters stay with the organizers."""
    sequential = selectors.sequential_of(round=access.round)
    require_participant(access)
    config = selectors.team_config(sequential=sequential, organizer=access.is_organizer)
    response = HttpResponse(
        json.dumps(config, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="config.json"'
    return response


@kind_view(KEY)
def master_download(request, access):
    """``master.csv``: batch mode, the team's whole master; online mode, the master as known
    so far (lifespans cut at the visible step). Organizers: any team's whole master."""
    sequential = selectors.sequential_of(round=access.round)
    if access.is_organizer:
        team = access.team
        if request.GET.get("team"):
            team = get_object_or_404(access.competition.teams.all(), slug=request.GET["team"])
        master = selectors.team_master(sequential=sequential, team=team)
        if master is None:
            raise Http404("No master.")
        return csv_bytes_response(services.master_bytes(master=master), "master.csv")
    team = require_team(access)
    if request.GET.get("team"):
        raise Http404("Not your master.")
    with refused_as_404():
        content = services.team_master_bytes(sequential=sequential, team=team)
    return csv_bytes_response(content, "master.csv")


@kind_view(KEY)
def release_file(request, access, pk: int):
    release = own_release(access, pk)
    return csv_bytes_response(
        services.release_bytes_for_download(release=release), f"release_{release.step}.csv"
    )


@kind_view(KEY)
def release_risk_csv(request, access, pk: int):
    release = own_release(access, pk)
    if not release.per_person:
        raise Http404("No risk table.")
    return csv_bytes_response(
        selectors.release_risk_table(release=release), f"risk_per_person_{release.step}.csv"
    )


@kind_view(KEY)
def target_file(request, access, team_slug: str, filename: str):
    """A published file of a target sequence (no pid, renumbered groups; spec §10)."""
    target = attack_target(access, team_slug)
    if filename not in target.files:
        raise Http404("No such file.")
    return csv_bytes_response(target.files[filename], filename)


@kind_view(KEY)
def kit_download(request, access):
    """The team's starter kit: what its Data tab offers, the toolkit wheel and a README."""
    sequential = selectors.sequential_of(round=access.round)
    team = require_team(access)
    with refused_as_404():
        files = kit.kit_files(sequential=sequential, team=team)
    return kit_response(files, kit.kit_download_name(sequential=sequential))


@kind_view(KEY)
def sample_download(request, access):
    """The sample ``release_<j>.csv``: the kit's baseline release of the team's next release."""
    sequential = selectors.sequential_of(round=access.round)
    team = require_team(access)
    with refused_as_404():
        step, content = kit.sample_release(sequential=sequential, team=team)
    return csv_bytes_response(content, f"release_{step}.csv")
