"""The toy's REST endpoints (mounted by the API under the round) and its answers to the
API's round status and standings, which the ``pwscup`` client reads for every kind:

* ``POST toy/uploads/``      upload a file (multipart ``file``) through ``toy_upload``
  (the page's service: limits, deadlines), **202**;
* ``GET  toy/uploads/<pk>/`` one of my team's uploads."""

from django.http import Http404
from django.urls import path, reverse
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from pwscup.accounts.access import round_access
from pwscup.competitions.selectors import phase_state
from pwscup.core.rest import ROUND_PREFIX
from tests.kinds.toy import selectors, services
from tests.kinds.toy.models import ToyUpload

KEY = "toygame"


def upload_json(upload: ToyUpload) -> dict:
    round_ = upload.round
    scored = upload.score is not None
    return {
        "type": "toy",
        "id": upload.pk,
        "number": upload.number,
        "status": upload.status,
        "created_at": upload.created_at,
        "about": "",
        "message": upload.message,
        "note": "",
        "scores": {"score": upload.score} if scored else {},
        "scores_text": {"score": f"{upload.score:g}"} if scored else {},
        "final": False,
        "url": reverse("api:toy-upload", args=[round_.competition.slug, round_.slug, upload.pk]),
    }


def round_status(request, access) -> dict:
    args = [access.competition.slug, access.round.slug]
    uploads = selectors.toy_uploads(round=access.round, team=access.team) if access.team else []
    return {
        "submission_types": [
            {
                "key": "toy",
                "label": "Toy upload",
                "url": reverse("api:toy-uploads", args=args),
                "open": phase_state(phase=access.round.phases.first()) == "open",
                "fields": [],
            }
        ],
        "downloads": [],
        "uploads": [upload_json(upload) for upload in uploads],
        "metrics": [{"key": "score", "name": "score", "note": "", "headline": True}],
    }


def round_leaderboard(request, access) -> dict:
    if not selectors.toy_published(round=access.round) and not access.is_organizer:
        raise Http404
    rows = [list(row) for row in selectors.toy_leaderboard(access.round)]
    return {"note": "", "tables": [{"title": "Toy", "columns": ["team", "score"], "rows": rows}]}


class UploadsView(APIView):
    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser]

    def post(self, request, competition_slug, round_slug):
        access = round_access(request, competition_slug, round_slug, kind=KEY)
        if access.team is None or "file" not in request.FILES:
            raise Http404
        # A ``Refused`` (size, limits, deadline) is answered by the API's handler.
        kept = services.toy_upload(
            round=access.round, team=access.team, uploaded_file=request.FILES["file"]
        )
        return Response(upload_json(kept), status=202)


class UploadView(APIView):
    permission_classes = [IsAuthenticated]

    def get(self, request, competition_slug, round_slug, pk):
        access = round_access(request, competition_slug, round_slug, kind=KEY)
        upload = ToyUpload.objects.filter(round=access.round, team=access.team, pk=pk).first()
        if upload is None:
            raise Http404
        return Response(upload_json(upload))


urlpatterns = [
    path(ROUND_PREFIX + "toy/uploads/", UploadsView.as_view(), name="toy-uploads"),
    path(ROUND_PREFIX + "toy/uploads/<int:pk>/", UploadView.as_view(), name="toy-upload"),
]
