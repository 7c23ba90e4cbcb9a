"""The sequential round's REST endpoints (mounted by the API under the round, like
``pwscup/dp/api/views.py``), with the access rules of its pages (``views/common.py``: 404 for a
round of another kind, for a caller outside the round's teams, for another team's file):

* ``GET  seq/releases/``                 my team's releases, newest first;
* ``POST seq/releases/``                 upload ``release_<j>.csv`` (multipart ``file``,
  ``step``) through ``release_upload`` (the page's service: steps open, limits, deadlines),
  **202**: a worker checks it (poll its ``url``);
* ``GET  seq/releases/<pk>/``            one release: status, message, results;
* ``GET  seq/releases/<pk>/release.csv`` the file as uploaded;
* ``GET  seq/T<j>.csv``, ``seq/master.csv``, ``seq/config.json`` the team's data as its Data
  tab serves it (online mode: never a release after the visible one);
* attack phase (every release frozen, the round has one): ``GET seq/targets/<team>/<file>``
  a published file of a target (no pid), ``POST seq/attacks/`` guesses on another team's
  target (multipart ``file``, ``target``: the team's slug; **202**, a worker scores them) and
  ``GET seq/attacks/<pk>/`` one of my team's attacks.

The round's status and leaderboard, the same shape for every kind (the API's ``…/status/``
and ``…/standings/``), are in ``round_status.py`` (the kind's hooks).
Messages follow Accept-Language.
"""

import json

from django.http import Http404, HttpResponse
from django.urls import path, reverse
from django.utils.translation import gettext as _
from drf_spectacular.plumbing import build_array_type, build_basic_type
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
from pwscup.core.rest import CSV_FILE, ROUND_PREFIX, UploadField, errors
from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.messages import release_message
from pwscup.sequential.models import Release, SeqAttack
from pwscup.sequential.views.common import attack_target, own_release, require_team
from scoring.display import format_number

JSON_OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)
JSON_LIST = OpenApiResponse(build_array_type(build_basic_type(OpenApiTypes.OBJECT)))
RELEASE, ATTACK = "release", "attack"  # the keys of the round's submission types
UNDEFINED = "–"


def _seq_access(request, competition_slug, round_slug):
    access = round_access(request, competition_slug, round_slug, kind=KEY)
    return access, selectors.sequential_of(round=access.round)


def score_text(value) -> str:
    """A result as the pages show it: integers as they are, else 4 decimals (a small value
    never reads 0.0000); "–" for none."""
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
        "scores_text": {m: score_text(results[m]) for m in shown},
        "final": release.is_frozen,  # the release of its step that counts
        "url": reverse("api:seq-release", args=[*args, release.pk]),
    }


def attack_json(attack: SeqAttack) -> dict:
    """Guesses on a target as every kind's upload reads in the API, with their accuracy once
    scored (the Submit tab shows it to the team)."""
    round_ = attack.target.sequential.round
    scored = attack.status == SeqAttack.Status.FINISHED and attack.accuracy is not None
    return {
        "type": ATTACK,
        "id": attack.pk,
        "number": attack.number,
        "status": attack.status,
        "created_at": attack.created_at,
        "about": attack.target.team.name,
        "message": release_message(attack),
        "note": "",
        "scores": {"accuracy": attack.accuracy} if scored else {},
        "scores_text": {"accuracy": score_text(attack.accuracy)} if scored else {},
        "final": False,
        "url": reverse("api:seq-attack", args=[round_.competition.slug, round_.slug, attack.pk]),
    }


def team_attacks(sequential, team):
    return SeqAttack.objects.filter(target__sequential=sequential, team=team).select_related(
        "target__team", "target__sequential__round__competition"
    )


class SeqAttackUploadSerializer(serializers.Serializer):
    file = UploadField()
    target = serializers.CharField(max_length=100, help_text="The target team's slug.")


class AttackListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        request=SeqAttackUploadSerializer,
        responses={202: JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload guesses (pid,guess) on another team's target (scored by a worker)",
    )
    def post(self, request, competition_slug, round_slug):
        access, _sequential = _seq_access(request, competition_slug, round_slug)
        team = require_team(access)
        form = SeqAttackUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        target = attack_target(access, form.validated_data["target"])
        attack = services.attack_upload(
            target=target, team=team, user=request.user, uploaded_file=form.validated_data["file"]
        )
        body = attack_json(attack)
        body["message"] = _(
            "Your guesses on %(team)s (#%(n)s) are received: a worker scores them."
        ) % {"team": target.team.name, "n": attack.number}
        return Response(body, status=202)


class AttackDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="One of my team's attacks: status, message, accuracy",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, sequential = _seq_access(request, competition_slug, round_slug)
        attack = team_attacks(sequential, require_team(access)).filter(pk=pk).first()
        if attack is None:
            raise Http404
        return Response(attack_json(attack))


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


class ReleaseUploadSerializer(serializers.Serializer):
    file = UploadField()
    step = serializers.IntegerField(min_value=1, max_value=10_000)


class ReleaseListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: JSON_LIST, **errors(401, 404)},
        summary="My team's releases in a sequential round, newest first",
        operation_id="seq_releases_list",
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
        operation_id="seq_release_retrieve",
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
    path(ROUND_PREFIX + "seq/attacks/", AttackListView.as_view(), name="seq-attacks"),
    path(ROUND_PREFIX + "seq/attacks/<int:pk>/", AttackDetailView.as_view(), name="seq-attack"),
    path(
        ROUND_PREFIX + "seq/targets/<str:team_slug>/<str:filename>",
        TargetFileView.as_view(),
        name="seq-target-file",
    ),
]
