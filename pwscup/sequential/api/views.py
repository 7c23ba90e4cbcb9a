"""The sequential round's own REST endpoints besides its uploads, declared
(``ROUND_ENDPOINTS``: the core serves them under the round), with the access rules of its pages
(``views/common.py``: 404 for a round of another kind, for a caller outside the round's
teams):

* ``GET  seq/T<j>.csv``, ``seq/master.csv``, ``seq/config.json`` the team's data as its Data
  tab serves it (online mode: never a release after the visible one);
* attack phase (every release frozen, the round has one): ``GET seq/targets/<team>/<file>``
  a published file of a target (no pid).

The releases and the attacks (``seq/releases/``, ``seq/attacks/``: list, upload **202**, one
upload, a release's file) are declared submission types (``submissions.py``), whose
endpoints the core serves. The round's status and leaderboard, the same shape for every kind
(the API's ``…/status/`` and ``…/standings/``), are in ``round_status.py`` (the kind's
hooks). Messages follow Accept-Language.
"""

import json
from functools import partial

from django.http import Http404, HttpResponse
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.core.exports import csv_bytes_response
from pwscup.core.rest import errors
from pwscup.core.rest_schemas import CSV_ANSWER, JSON_OBJECT
from pwscup.sequential import selectors, services
from pwscup.sequential.views.common import attack_target, require_team
from pwscup.submissions.submission_types import RoundEndpoint


def step_table(request, access, sequential, step):
    team = require_team(access)
    if not 1 <= step <= selectors.visible_steps(sequential=sequential):
        raise Http404(_("This release is not visible yet."))
    try:
        content = services.step_table_bytes(sequential=sequential, team=team, step=step)
    except Refused as refusal:
        raise Http404(refusal.message) from None
    return csv_bytes_response(content, f"T{step}.csv")


def master(request, access, sequential):
    team = require_team(access)
    try:
        content = services.team_master_bytes(sequential=sequential, team=team)
    except Refused as refusal:
        raise Http404(refusal.message) from None
    return csv_bytes_response(content, "master.csv")


def config(request, access, sequential):
    if access.team is None and not access.is_organizer:
        raise Http404(_("Not a participant."))
    config = selectors.team_config(sequential=sequential, organizer=access.is_organizer)
    response = HttpResponse(
        json.dumps(config, indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="config.json"'
    return response


def target_file(request, access, _sequential, team_slug, filename):
    target = attack_target(access, team_slug)
    if filename not in target.files:
        raise Http404
    return csv_bytes_response(target.files[filename], filename)


def sequential_part(access):
    """The round's ``SequentialRound``."""
    return selectors.sequential_of(round=access.round)


endpoint = partial(RoundEndpoint, part=sequential_part, responses=CSV_ANSWER)

# Served under /api/ by the API (``SequentialKind.api_round_endpoints``); the releases and
# the attacks are the core's (``SequentialKind.submission_types``).
ROUND_ENDPOINTS = [
    endpoint(
        "seq/T<int:step>.csv",
        "seq-step",
        step_table,
        summary="T(j) of my team's master (online mode: only the steps already visible)",
    ),
    endpoint(
        "seq/master.csv",
        "seq-master",
        master,
        summary="My team's master as known so far (online mode: lifespans cut at the visible step)",
    ),
    endpoint(
        "seq/config.json",
        "seq-config",
        config,
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="The round's configuration as config.json (for the local check)",
    ),
    endpoint(
        "seq/targets/<str:team_slug>/<str:filename>",
        "seq-target-file",
        target_file,
        summary="A published file of a target sequence (attack phase; no pid)",
    ),
]
