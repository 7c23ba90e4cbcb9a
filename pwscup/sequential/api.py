"""The sequential round's REST endpoints (mounted by the API under the round, like
``pwscup/dp/api.py``), with the access rules of its pages (``views/common.py``: 404 for a
round of another kind, for a caller outside the round's teams, for another team's file):

* ``GET  seq/releases/``                 my team's releases, newest first;
* ``POST seq/releases/``                 upload ``release_<j>.csv`` (multipart ``file``,
  ``step``) through ``release_upload`` (the page's service: steps open, limits, deadlines),
  **202**: a worker checks it (poll its ``url``);
* ``GET  seq/releases/<pk>/``            one release: status, message, results;
* ``GET  seq/releases/<pk>/release.csv`` the file as uploaded;
* ``GET  seq/T<j>.csv``, ``seq/master.csv``, ``seq/config.json`` the team's data as its Data
  tab serves it (online mode: never a release after the visible one).

The round's status and leaderboard, the same shape for every kind (the API's ``…/status/``
and ``…/standings/``), are ``round_status`` and ``round_leaderboard`` (the kind's hooks).
Messages follow Accept-Language.
"""

import json

from django.http import Http404, HttpResponse
from django.urls import path, reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.core.errors import Refused
from pwscup.core.exports import csv_bytes_response
from pwscup.core.rest import CSV_FILE, ROUND_PREFIX, errors
from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.messages import release_message
from pwscup.sequential.models import Release
from pwscup.sequential.views.common import own_release, require_team
from scoring.display import format_number

JSON_OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)
RELEASE = "release"  # the key of the round's one submission type
UNDEFINED = "–"
# A release's one-line summary (``pwscup status``): the invariance, the risks, the loss.
HEADLINE = ("MINV", "RN_max", "RA_max", "IL")


def _seq_access(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug, kind=KEY)
    return access, selectors.sequential_of(round=access.round)


def _text(value) -> str:
    if value is None:
        return UNDEFINED
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return format_number(value)


def release_json(release: Release) -> dict:
    """A release as every kind's upload reads in the API (``RoundKind.api_round_status``),
    with its step and its results (the leaderboard's columns) once it is valid."""
    args = [release.sequential.round.competition.slug, release.sequential.round.slug]
    results = release.results if release.status == Release.Status.FINISHED else {}
    shown = [m for m in selectors.BOARD_METRICS if m in results]
    return {
        "type": RELEASE,
        "id": release.pk,
        "number": release.number,
        "step": release.step,
        "status": release.status,
        "created_at": release.created_at,
        "message": release_message(release),
        "about": _("release %(j)s") % {"j": release.step},
        "note": "",
        "scores": {m: results[m] for m in shown},
        "scores_text": {m: _text(results[m]) for m in shown},
        "final": release.is_frozen,  # the release of its step that counts
        "url": reverse("api:seq-release", args=[*args, release.pk]),
    }


class ReleaseUploadSerializer(serializers.Serializer):
    file = serializers.FileField()
    step = serializers.IntegerField(min_value=1, max_value=10_000)


class ReleaseListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="My team's releases in a sequential round, newest first",
    )
    def get(self, request, competition_slug, round_slug):
        access, sequential = _seq_access(request, competition_slug, round_slug)
        team = require_team(access)
        releases = selectors.team_releases(sequential=sequential, team=team)
        return Response([release_json(release) for release in releases])

    @extend_schema(
        request=ReleaseUploadSerializer,
        responses={202: JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload release_<j>.csv (checked by a worker with the team's earlier releases)",
        description="The round page's service: the step must be open, the limits and the "
        "deadline are enforced, with the page's messages.",
    )
    def post(self, request, competition_slug, round_slug):
        access, sequential = _seq_access(request, competition_slug, round_slug)
        team = require_team(access)
        form = ReleaseUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        release = services.release_upload(
            sequential=sequential,
            team=team,
            user=request.user,
            step=form.validated_data["step"],
            uploaded_file=form.validated_data["file"],
        )
        body = release_json(release)
        body["message"] = _("Release %(j)s (#%(n)s) is received: a worker checks it.") % {
            "j": release.step,
            "n": release.number,
        }
        return Response(body, status=202)


class ReleaseDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="One of my team's releases: status, message and results",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, _sequential = _seq_access(request, competition_slug, round_slug)
        return Response(release_json(own_release(access, pk)))


class ReleaseFileView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "text/csv"): CSV_FILE, **errors(401, 404)},
        summary="One of my team's releases, as uploaded",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, _sequential = _seq_access(request, competition_slug, round_slug)
        release = own_release(access, pk)
        return csv_bytes_response(
            services.release_bytes_for_download(release=release), f"release_{release.step}.csv"
        )


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


# --- the kind's answers to the API's round status and standings ---------------------------


def _download(name: str, label: str, url_name: str, args: list) -> dict:
    return {"name": name, "label": label, "url": reverse(url_name, args=args)}


def round_status(request, access) -> dict:
    """``SequentialKind.api_round_status``: the release upload (its open steps), the team's
    data as its Data tab offers it now, its releases."""
    sequential = selectors.sequential_of(round=access.round)
    args = [access.competition.slug, access.round.slug]
    answer = {"submission_types": [], "downloads": [], "uploads": [], "metrics": []}
    answer["metrics"] = [
        {"key": m, "name": m, "note": "", "headline": m in HEADLINE}
        for m in selectors.BOARD_METRICS
    ]
    if access.team is None and not access.is_organizer:
        return answer
    answer["downloads"].append(_download("config.json", _("Configuration"), "api:seq-config", args))
    if access.team is None:
        return answer
    steps = selectors.open_steps(sequential=sequential, now=timezone.now())
    answer["submission_types"].append(
        {
            "key": RELEASE,
            "label": _("A release (release_<j>.csv)"),
            "url": reverse("api:seq-releases", args=args),
            "open": bool(steps),
            "fields": [
                {
                    "name": "step",
                    "label": _("Release"),
                    "required": True,
                    "choices": [str(step) for step in steps],
                }
            ],
        }
    )
    if selectors.team_master(sequential=sequential, team=access.team) is not None:
        answer["downloads"].append(
            _download("master.csv", _("Your master table"), "api:seq-master", args)
        )
        for step in range(1, selectors.visible_steps(sequential=sequential) + 1):
            answer["downloads"].append(
                _download(
                    f"T{step}.csv",
                    _("The table at release %(j)s") % {"j": step},
                    "api:seq-step",
                    [*args, step],
                )
            )
    releases = selectors.team_releases(sequential=sequential, team=access.team)
    answer["uploads"] = [release_json(release) for release in releases]
    return answer


def round_leaderboard(request, access) -> dict:
    """``SequentialKind.api_leaderboard``: the leaderboard page's table, to the same callers
    (organizers, the round's teams, everyone once the results are published)."""
    sequential = selectors.sequential_of(round=access.round)
    if not (access.is_organizer or access.team is not None or sequential.results_published):
        raise Http404(_("No leaderboard."))
    metrics = list(selectors.BOARD_METRICS)
    rows = []
    for row in selectors.leaderboard_rows(sequential=sequential):
        if not row.complete:
            validity = _("incomplete")
        elif row.gate_failures:
            validity = _("fails %(gates)s") % {"gates": ", ".join(row.gate_failures)}
        else:
            validity = _("valid")
        rows.append(
            [row.rank, row.team.name, validity, *[_text(row.results.get(m)) for m in metrics]]
        )
    note = _("Over the frozen releases 1 … %(j)s (of %(n)s).") % {
        "j": sequential.frozen_steps,
        "n": sequential.n_releases,
    }
    return {
        "note": note,
        "tables": [
            {
                "title": _("Leaderboard"),
                "columns": [_("Rank"), _("Team"), _("Validity"), *metrics],
                "rows": rows,
            }
        ],
    }


# Mounted under /api/ by the API (``SequentialKind.api_url_patterns``).
api_urlpatterns = [
    path(ROUND_PREFIX + "seq/releases/", ReleaseListView.as_view(), name="seq-releases"),
    path(ROUND_PREFIX + "seq/releases/<int:pk>/", ReleaseDetailView.as_view(), name="seq-release"),
    path(
        ROUND_PREFIX + "seq/releases/<int:pk>/release.csv",
        ReleaseFileView.as_view(),
        name="seq-release-file",
    ),
    path(ROUND_PREFIX + "seq/T<int:step>.csv", StepTableView.as_view(), name="seq-step"),
    path(ROUND_PREFIX + "seq/master.csv", MasterView.as_view(), name="seq-master"),
    path(ROUND_PREFIX + "seq/config.json", ConfigView.as_view(), name="seq-config"),
]
