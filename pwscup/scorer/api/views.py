"""The scorer round's REST endpoints (mounted by the API under the round, like the other
kinds'), with the access rules of its pages: 404 for a round of another kind, for a caller
outside the round's teams, for another team's release or attack.

* ``GET  scorer/releases/``                my team's releases, newest first;
* ``POST scorer/releases/``                upload a release (multipart ``file``) through
  ``release_upload`` (release phase open, not frozen, limits), **202**: a worker runs the
  organizer's program on it (poll its ``url``);
* ``GET  scorer/releases/<pk>/``           one release: status, message, scores as written;
* ``GET  scorer/releases/<pk>/file``       the release as my team uploaded it;
* ``POST scorer/releases/<pk>/select/``    make a scored release my final one;
* ``GET  scorer/attacks/``, ``POST scorer/attacks/`` (multipart ``file`` and, in a round of
  one upload per target, ``target``: the target team's slug), ``GET scorer/attacks/<pk>/``
  and ``…/<pk>/file``: my team's attacks, their scores under the round's visibility rule;
* the downloads (``files.py``): the public pack, my slot's folder, and after the freeze the
  targets (``scorer/targets/``) and each target's public ZIP.

Messages follow Accept-Language."""

from django.shortcuts import get_object_or_404
from django.urls import path
from django.utils.translation import gettext as _
from drf_spectacular.plumbing import build_array_type, build_basic_type
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.core.errors import Refused
from pwscup.core.rest import ROUND_PREFIX, UploadField, errors
from pwscup.scorer import selectors, services
from pwscup.scorer.api import files
from pwscup.scorer.api.common import (
    attack_json,
    attacks_json,
    release_json,
    releases_json,
    require_team,
    scorer_access,
)
from pwscup.scorer.models import Attack, Release, Target
from pwscup.submissions.messages import upload_received_message

JSON_OBJECT = OpenApiResponse(OpenApiTypes.OBJECT)
JSON_LIST = OpenApiResponse(build_array_type(build_basic_type(OpenApiTypes.OBJECT)))


class ScorerReleaseUploadSerializer(serializers.Serializer):
    file = UploadField()


class ScorerAttackUploadSerializer(serializers.Serializer):
    file = UploadField()
    target = serializers.CharField(
        max_length=100,
        required=False,
        allow_blank=True,
        help_text="The target team's slug (a round of one upload per target; none when one "
        "upload covers every target).",
    )


def own_release(access, scorer, pk: int) -> Release:
    return get_object_or_404(
        Release.objects.select_related("program", "scorer__round__competition"),
        pk=pk,
        scorer=scorer,
        team=require_team(access),
    )


def own_attack(access, scorer, pk: int) -> Attack:
    return get_object_or_404(
        Attack.objects.select_related("program", "target__team"),
        pk=pk,
        scorer=scorer,
        team=require_team(access),
    )


def final_pk(scorer, team) -> int | None:
    final = selectors.final_release(scorer=scorer, team=team)
    return final.pk if final is not None else None


def shown_attack(attack: Attack, *, scorer, access) -> dict:
    visibility = selectors.attack_visibility(scorer=scorer, is_organizer=access.is_organizer)
    config = selectors.round_config(scorer.round)
    return attack_json(attack, scorer=scorer, visibility=visibility, config=config)


class ReleaseListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: JSON_LIST, **errors(401, 404)},
        summary="My team's releases in a scorer round, newest first",
        operation_id="scorer_releases_list",
    )
    def get(self, request, competition_slug, round_slug):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        return Response(releases_json(scorer, require_team(access)))

    @extend_schema(
        request=ScorerReleaseUploadSerializer,
        responses={202: JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload a release (scored by the organizer's program on a worker)",
        description="The round page's service: the release phase must be open and the round "
        "not frozen; the limits and the deadline are enforced, with the page's messages.",
        operation_id="scorer_releases_create",
    )
    def post(self, request, competition_slug, round_slug):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        team = require_team(access)
        form = ScorerReleaseUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        release = services.release_upload(
            scorer=scorer, team=team, user=request.user, uploaded_file=form.validated_data["file"]
        )
        body = release_json(release, final_pk=None)
        body["message"] = upload_received_message(release)
        return Response(body, status=202)


class ReleaseDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="One of my team's releases: status, message and scores as written",
        operation_id="scorer_release_retrieve",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        release = own_release(access, scorer, pk)
        return Response(release_json(release, final_pk=final_pk(scorer, release.team)))


class ReleaseFileView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "application/octet-stream"): files.BINARY_FILE, **errors(401, 404)},
        summary="One of my team's releases, as uploaded",
        operation_id="scorer_release_file_retrieve",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        return files.upload_file_response(own_release(access, scorer, pk))


class ReleaseSelectView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: JSON_OBJECT, **errors(400, 401, 403, 404)},
        summary="Make one of my team's scored releases its final one (until the freeze)",
        operation_id="scorer_release_select",
    )
    def post(self, request, competition_slug, round_slug, pk):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        release = own_release(access, scorer, pk)
        if scorer.frozen_at is not None:
            raise Refused(
                _("The releases are frozen: the final release cannot change."), status=403
            )
        services.release_select(release=release)
        body = release_json(release, final_pk=release.pk)
        body["message"] = _("Release #%(n)s is now your final release.") % {"n": release.number}
        return Response(body)


def attack_target(scorer, slug: str, *, per_target: bool) -> Target | None:
    """The target an attack upload names (``None`` in a round where one upload covers every
    target): refused with the service's messages when the shape is wrong, and (403) before
    the freeze."""
    if not per_target and slug:
        raise Refused(_("An attack in this round covers every target at once."), status=400)
    if per_target and not slug:
        raise Refused(_("Choose the target team of your attack."), status=400)
    if scorer.frozen_at is None:
        raise Refused(_("The releases are not frozen yet: there is nothing to attack."), status=403)
    if not per_target:
        return None
    return get_object_or_404(
        Target.objects.select_related("team", "release", "scorer__round"),
        scorer=scorer,
        team__slug=slug,
    )


class AttackListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: JSON_LIST, **errors(401, 404)},
        summary="My team's attacks, newest first (scores under the round's visibility rule)",
        operation_id="scorer_attacks_list",
    )
    def get(self, request, competition_slug, round_slug):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        require_team(access)
        return Response(attacks_json(scorer, access))

    @extend_schema(
        request=ScorerAttackUploadSerializer,
        responses={202: JSON_OBJECT, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload an attack: on one target (target: its team's slug) or on every target",
        operation_id="scorer_attacks_create",
    )
    def post(self, request, competition_slug, round_slug):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        team = require_team(access)
        form = ScorerAttackUploadSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        per_target = selectors.round_config(scorer.round).attack_mode == "per_target"
        target = attack_target(
            scorer, form.validated_data.get("target", "").strip(), per_target=per_target
        )
        attack = services.attack_upload(
            scorer=scorer,
            team=team,
            user=request.user,
            uploaded_file=form.validated_data["file"],
            target=target,
        )
        body = shown_attack(attack, scorer=scorer, access=access)
        body["message"] = upload_received_message(attack)
        return Response(body, status=202)


class AttackDetailView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={200: JSON_OBJECT, **errors(401, 404)},
        summary="One of my team's attacks: status, message, scores under the visibility rule",
        operation_id="scorer_attack_retrieve",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        attack = own_attack(access, scorer, pk)
        return Response(shown_attack(attack, scorer=scorer, access=access))


class AttackFileView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        responses={(200, "application/octet-stream"): files.BINARY_FILE, **errors(401, 404)},
        summary="One of my team's attacks, as uploaded",
        operation_id="scorer_attack_file_retrieve",
    )
    def get(self, request, competition_slug, round_slug, pk):
        access, scorer = scorer_access(request, competition_slug, round_slug)
        return files.upload_file_response(own_attack(access, scorer, pk))


P = ROUND_PREFIX + "scorer/"

# Mounted under /api/ by the API (``ScorerKind.api_url_patterns``).
urlpatterns = [
    path(P + "releases/", ReleaseListView.as_view(), name="scorer-releases"),
    path(P + "releases/<int:pk>/", ReleaseDetailView.as_view(), name="scorer-release"),
    path(P + "releases/<int:pk>/file", ReleaseFileView.as_view(), name="scorer-release-file"),
    path(
        P + "releases/<int:pk>/select/", ReleaseSelectView.as_view(), name="scorer-release-select"
    ),
    path(P + "attacks/", AttackListView.as_view(), name="scorer-attacks"),
    path(P + "attacks/<int:pk>/", AttackDetailView.as_view(), name="scorer-attack"),
    path(P + "attacks/<int:pk>/file", AttackFileView.as_view(), name="scorer-attack-file"),
    *files.urlpatterns(P),
]
