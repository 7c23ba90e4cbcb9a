"""The sequential round's own REST endpoints besides its uploads (``submissions.py``),
declared (``ROUND_ENDPOINTS``: the core serves them under the round), with the access rules
of its pages (``access.py``: 404 for a round of another kind, for a caller outside the
round's teams): the team's data as its Data tab serves it, and a target's published files
in the attack phase (docs/api.md lists them). Each is also the Data tab's download at the
same address under the round's pages (``RoundEndpoint.page_name``): one answer for the
browser and the client. The round's status and leaderboard are ``round_status.py``'s.
Messages follow Accept-Language.
"""

import json

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from pwscup.core.exports import csv_bytes_response, json_text_response
from pwscup.core.rest import errors
from pwscup.core.rest_schemas import CSV_ANSWER, JSON_OBJECT
from pwscup.core.stored import stored_bytes
from pwscup.sequential import selectors, services
from pwscup.sequential.access import attack_target, require_team
from pwscup.submissions.round_api import require_participant
from pwscup.submissions.round_endpoints import RoundEndpoints
from pwscup.submissions.round_pages import refused_as_404


def sequential_part(access):
    """The round's ``SequentialRound``."""
    return selectors.sequential_of(round=access.round)


# Served under /api/ by the API (``SequentialKind.api_round_endpoints``); the releases and
# the attacks are the core's (``SequentialKind.submission_types``).
ROUND_ENDPOINTS = RoundEndpoints(part=sequential_part, responses=CSV_ANSWER)


@ROUND_ENDPOINTS.declare(
    "seq/T<int:step>.csv",
    "seq-step",
    page_name="step_table",
    summary=gettext_lazy("T(j) of my team's master (online mode: only the steps already visible)"),
)
def step_table(request, access, sequential, step):
    """``T(j).csv`` of the team's master: a step the team may see (online: not the future)."""
    team = require_team(access)
    if not 1 <= step <= selectors.visible_steps(sequential=sequential):
        raise Http404(_("This release is not visible yet."))
    with refused_as_404():
        content = services.step_table_bytes(sequential=sequential, team=team, step=step)
    return csv_bytes_response(content, f"T{step}.csv")


@ROUND_ENDPOINTS.declare(
    "seq/master.csv",
    "seq-master",
    page_name="master",
    summary=gettext_lazy(
        "My team's master as known so far (online mode: lifespans cut at the visible "
        "step); an organizer's: any team's whole master (?team=<slug>)"
    ),
)
def master(request, access, sequential):
    """``master.csv``: batch mode, the team's whole master; online mode, the master as known
    so far (lifespans cut at the visible step). An organizer: any team's whole master
    (``?team=<slug>``), else the round's shared one."""
    if access.is_organizer:
        team = access.team
        if request.GET.get("team"):
            team = get_object_or_404(access.competition.teams.all(), slug=request.GET["team"])
        found = selectors.team_master(sequential=sequential, team=team)
        if found is None:
            raise Http404(_("No master table."))
        return csv_bytes_response(stored_bytes(found.file), "master.csv")
    team = require_team(access)
    if request.GET.get("team"):
        raise Http404(_("Not your team's master table."))
    with refused_as_404():
        content = services.team_master_bytes(sequential=sequential, team=team)
    return csv_bytes_response(content, "master.csv")


@ROUND_ENDPOINTS.declare(
    "seq/config.json",
    "seq-config",
    page_name="config",
    responses={200: JSON_OBJECT, **errors(401, 404)},
    summary=gettext_lazy("The round's configuration as config.json (for the local check)"),
)
def config(request, access, sequential):
    """``config.json`` for ``python -m scoring seq check``; the pool's draw parameters stay
    with the organizers."""
    require_participant(access)
    config = selectors.team_config(sequential=sequential, organizer=access.is_organizer)
    return json_text_response(json.dumps(config, indent=2, ensure_ascii=False), "config.json")


@ROUND_ENDPOINTS.declare(
    "seq/targets/<str:team_slug>/<str:filename>",
    "seq-target-file",
    page_name="target_file",
    summary=gettext_lazy("A published file of a target sequence (attack phase; no pid)"),
)
def target_file(request, access, _sequential, team_slug, filename):
    """A published file of a target sequence (no pid, renumbered groups; spec §10)."""
    target = attack_target(access, team_slug)
    if filename not in target.files:
        raise Http404
    return csv_bytes_response(target.files[filename], filename)
