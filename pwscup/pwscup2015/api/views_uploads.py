"""A team's uploads (anonymized tables, attacks) and the published targets, through the
services and access rules of the round page."""

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_view
from rest_framework.exceptions import NotFound
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import RoundAccess
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, user_is_organizer
from pwscup.core.files import private_file_response
from pwscup.core.rest import errors
from pwscup.core.rest_schemas import CSV_ANSWER
from pwscup.pwscup2015 import services
from pwscup.pwscup2015.access import (
    check_uploader,
    upload_for,
)
from pwscup.pwscup2015.api import serializers as s
from pwscup.pwscup2015.api.common import game_round_access
from pwscup.pwscup2015.leaderboards.selectors import attack_rates_visible_to_team
from pwscup.pwscup2015.models import AnonymizationSubmission, AttackSubmission
from pwscup.pwscup2015.selectors import round_targets, team_attacks, team_submissions
from pwscup.submissions.messages import upload_received_message


def _accepted(upload, url_name: str) -> Response:
    """202 with the notice the round page shows after an upload."""
    data = {
        "id": upload.pk,
        "number": upload.number,
        "status": upload.status,
        "message": upload_received_message(upload),
        "url": reverse(url_name, args=[upload.pk]),
    }
    return Response(s.UploadAcceptedSerializer(data).data, status=202)


def _team_phase(access: RoundAccess, kind: str) -> Phase:
    """The phase whose uploads a team lists (like the page's status JSON: members only)."""
    phase = phase_of(round=access.round, kind=kind)
    if access.team is None or phase is None:
        raise Http404
    return phase


def _team_uploads(uploads_of, access: RoundAccess, kind: str):
    """The team's uploads in the phase of ``kind`` (``uploads_of``: the selector), with the
    rows every answer reads beside them."""
    phase = _team_phase(access, kind)
    return uploads_of(phase=phase, team=access.team).select_related(
        "team", "phase__round__competition"
    )


def _upload_request(request, competition_slug, round_slug, kind: str, serializer):
    """An upload's caller, its phase (refused as the round page refuses: window, team) and its
    validated fields."""
    access = game_round_access(request, competition_slug, round_slug)
    phase = phase_of(round=access.round, kind=kind)
    check_uploader(access, phase)
    form = serializer(data=request.data)
    form.is_valid(raise_exception=True)
    return access, phase, form.validated_data


def _show_rates(access_round, *, is_organizer: bool) -> bool:
    return is_organizer or attack_rates_visible_to_team(round=access_round)


class SubmissionListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: s.SubmissionSerializer(many=True), **errors(401, 404)},
        summary="My team's anonymized uploads in the round, newest first",
    )
    def get(self, request, competition_slug, round_slug):
        access = game_round_access(request, competition_slug, round_slug)
        submissions = _team_uploads(team_submissions, access, Phase.Kind.ANONYMIZATION)
        return Response(s.SubmissionSerializer(submissions, many=True).data)

    @extend_schema(
        request=s.SubmissionUploadSerializer,
        responses={202: s.UploadAcceptedSerializer, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload an anonymized CSV (scored in the background)",
        description="Same window, size and quota checks as the round page, with the same "
        "messages. An invalid file is kept and its submission FAILED with the reason.",
    )
    def post(self, request, competition_slug, round_slug):
        access, phase, data = _upload_request(
            request,
            competition_slug,
            round_slug,
            Phase.Kind.ANONYMIZATION,
            s.SubmissionUploadSerializer,
        )
        upload = services.anonymization_submission_create(
            phase=phase,
            team=access.team,
            user=request.user,
            uploaded_file=data["file"],
            note=data.get("note", ""),
        )
        return _accepted(upload, "api:submission-detail")


class OwnUploadView(APIView):
    # One upload of ``model`` by its id, to its team and the organizers (``upload_for``): one
    # class per model and answer, with its own schema (``upload_view``). (A comment, not a
    # docstring: the schema would give it as the endpoints' description.)
    permission_classes = [IsAuthenticated]
    model = None

    def upload(self, request, pk):
        return upload_for(user=request.user, model=self.model, pk=pk)


class UploadDetailView(OwnUploadView):
    # The upload as ``serializer`` writes it, with ``context``.
    serializer = None

    def context(self, request, upload) -> dict:
        return {}

    def get(self, request, pk):
        upload = self.upload(request, pk)
        return Response(self.serializer(upload, context=self.context(request, upload)).data)


class UploadFileView(OwnUploadView):
    # The upload's file, as uploaded.
    def get(self, request, pk):
        upload = self.upload(request, pk)
        return private_file_response(upload.file, upload.original_filename)


def upload_view(base, model, *, responses, summary: str, **attrs):
    """``base`` (one of the views above) for ``model``, with its schema."""
    view = type(f"{model.__name__}{base.__name__}", (base,), {"model": model, **attrs})
    return extend_schema_view(get=extend_schema(responses=responses, summary=summary))(view)


SubmissionDetailView = upload_view(
    UploadDetailView,
    AnonymizationSubmission,
    serializer=s.SubmissionSerializer,
    responses={200: s.SubmissionSerializer, **errors(401, 404)},
    summary="One anonymized upload: status and scores",
)
SubmissionFileView = upload_view(
    UploadFileView,
    AnonymizationSubmission,
    responses=CSV_ANSWER,
    summary="Download the uploaded file, as uploaded",
)


class SubmissionSelectView(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={200: s.SubmissionSerializer, **errors(400, 401, 403, 404)},
        summary="Make this submission your team's final one",
    )
    def post(self, request, pk):
        submission = upload_for(
            user=request.user, model=AnonymizationSubmission, pk=pk, owner_only=True
        )
        services.anonymization_submission_select(submission=submission, team=submission.team)
        return Response(s.SubmissionSerializer(submission).data)


class AttackListView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    @extend_schema(
        responses={200: s.AttackSerializer(many=True), **errors(401, 404)},
        summary="My team's attacks in the round, newest first",
    )
    def get(self, request, competition_slug, round_slug):
        access = game_round_access(request, competition_slug, round_slug)
        attacks = _team_uploads(team_attacks, access, Phase.Kind.ATTACK)
        context = {"show_rates": _show_rates(access.round, is_organizer=access.is_organizer)}
        return Response(s.AttackSerializer(attacks, many=True, context=context).data)

    @extend_schema(
        request=s.AttackUploadSerializer,
        responses={202: s.UploadAcceptedSerializer, **errors(400, 401, 403, 404, 413, 429)},
        summary="Upload a correspondence table against a target",
    )
    def post(self, request, competition_slug, round_slug):
        access, phase, data = _upload_request(
            request, competition_slug, round_slug, Phase.Kind.ATTACK, s.AttackUploadSerializer
        )
        slug = data["target"]
        target = next((t for t in round_targets(round=access.round) if t.team.slug == slug), None)
        if target is None:  # as the target's own URLs answer, and every kind's attack upload
            raise NotFound(_("No published target of the team %(team)s.") % {"team": slug})
        upload = services.attack_submission_create(
            phase=phase,
            team=access.team,
            target=target,
            user=request.user,
            uploaded_file=data["file"],
            note=data.get("note", ""),
        )
        return _accepted(upload, "api:attack-detail")


class AttackUploadDetailView(UploadDetailView):
    # Its rate only where the round shows it to the caller.
    def context(self, request, upload) -> dict:
        round_ = upload.phase.round
        organizer = user_is_organizer(user=request.user, competition=round_.competition)
        return {"show_rates": _show_rates(round_, is_organizer=organizer)}


AttackDetailView = upload_view(
    AttackUploadDetailView,
    AttackSubmission,
    serializer=s.AttackSerializer,
    responses={200: s.AttackSerializer, **errors(401, 404)},
    summary="One attack: status and (when visible) its rate",
)
AttackFileView = upload_view(
    UploadFileView,
    AttackSubmission,
    responses=CSV_ANSWER,
    summary="Download the uploaded correspondence table",
)
