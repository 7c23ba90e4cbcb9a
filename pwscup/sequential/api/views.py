"""The sequential round's own REST endpoints besides its uploads (mounted by the API under
the round, like ``pwscup/dp/api/views.py``), with the access rules of its pages
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

from django.http import Http404, HttpResponse
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.core.errors import Refused
from pwscup.core.exports import csv_bytes_response
from pwscup.core.rest import CSV_FILE, ROUND_PREFIX, errors
from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.views.common import attack_target, require_team

JSON_OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)


def _seq_access(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug, kind=KEY)
    return access, selectors.sequential_of(round=access.round)


class StepTableView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="T(j) of my team's master (online mode: only the steps already visible)",
    )
    def get(self, request, competition_slug, round_slug, step):
        access, sequential = _seq_access(request, competition_slug, round_slug)
        team = require_team(access)
        if not 1 <= step <= selectors.visible_steps(sequential=sequential):
            raise Http404(_("This release is not visible yet."))
        try:
            content = services.step_table_bytes(sequential=sequential, team=team, step=step)
        except Refused as refusal:
            raise Http404(refusal.message) from None
        return csv_bytes_response(content, f"T{step}.csv")


class MasterView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="My team's master as known so far (online mode: lifespans cut at the visible step)",
    )
    def get(self, request, competition_slug, round_slug):
        access, sequential = _seq_access(request, competition_slug, round_slug)
        team = require_team(access)
        try:
            content = services.team_master_bytes(sequential=sequential, team=team)
        except Refused as refusal:
            raise Http404(refusal.message) from None
        return csv_bytes_response(content, "master.csv")


class ConfigView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="The round's configuration as config.json (for the local check)",
    )
    def get(self, request, competition_slug, round_slug):
        access, sequential = _seq_access(request, competition_slug, round_slug)
        if access.team is None and not access.is_organizer:
            raise Http404(_("Not a participant."))
        config = selectors.team_config(sequential=sequential, organizer=access.is_organizer)
        response = HttpResponse(
            json.dumps(config, indent=2, ensure_ascii=False), content_type="application/json"
        )
        response["Content-Disposition"] = 'attachment; filename="config.json"'
        return response


class TargetFileView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="A published file of a target sequence (attack phase; no pid)",
    )
    def get(self, request, competition_slug, round_slug, team_slug, filename):
        access, _sequential = _seq_access(request, competition_slug, round_slug)
        target = attack_target(access, team_slug)
        if filename not in target.files:
            raise Http404
        return csv_bytes_response(target.files[filename], filename)


# Mounted under /api/ by the API (``SequentialKind.api_url_patterns``); the releases and the
# attacks are the core's (``SequentialKind.submission_types``).
api_urlpatterns = [
    path(ROUND_PREFIX + "seq/T<int:step>.csv", StepTableView.as_view(), name="seq-step"),
    path(ROUND_PREFIX + "seq/master.csv", MasterView.as_view(), name="seq-master"),
    path(ROUND_PREFIX + "seq/config.json", ConfigView.as_view(), name="seq-config"),
    path(
        ROUND_PREFIX + "seq/targets/<str:team_slug>/<str:filename>",
        TargetFileView.as_view(),
        name="seq-target-file",
    ),
]
