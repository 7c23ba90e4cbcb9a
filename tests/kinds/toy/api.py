"""The toy's uploads as a declared submission type (the core serves their REST endpoints:
``toy/uploads/`` list and upload **202**, ``toy/uploads/<pk>/`` one upload,
``toy/uploads/<pk>/file`` the file as sent), and its answers to the API's round status and
standings, which the ``pwscup`` client reads for every kind. No view of its own."""

from django.http import FileResponse, Http404

from pwscup.competitions.selectors import phase_state
from pwscup.submissions.submission_types import SubmissionType
from tests.kinds.toy import selectors, services


class ToyUploads(SubmissionType):
    key = "toy"
    label = "Toy upload"
    path = "toy/uploads"
    url_name = "toy-upload"
    operation = "toy_upload"
    summaries = {"list": "My team's toy uploads", "create": "Upload a toy file"}
    has_file = True

    def uploads(self, part, access):
        return selectors.toy_uploads(round=access.round, team=self.team(access))

    def as_json(self, upload, part, access, context):
        scored = upload.score is not None
        return {
            "about": "",
            "message": upload.message,
            "note": "",
            "scores": {"score": upload.score} if scored else {},
            "scores_text": {"score": f"{upload.score:g}"} if scored else {},
            "final": False,
        }

    def upload(self, part, access, *, user, uploaded_file, data):
        # A ``Refused`` (size, limits, deadline) is answered by the API's handler.
        return services.toy_upload(
            round=access.round, team=access.team, uploaded_file=uploaded_file
        )

    def file_response(self, upload):
        return FileResponse(upload.file.open("rb"), as_attachment=True, filename="toy.csv")

    def is_open(self, part, access):
        return phase_state(phase=access.round.phases.first()) == "open"


SUBMISSION_TYPES = [ToyUploads()]


def round_status(request, access) -> dict:
    return {
        "downloads": [],
        "metrics": [{"key": "score", "name": "score", "note": "", "headline": True}],
    }


def round_leaderboard(request, access) -> dict:
    if not selectors.toy_published(round=access.round) and not access.is_organizer:
        raise Http404
    rows = [list(row) for row in selectors.toy_leaderboard(access.round)]
    return {"note": "", "tables": [{"title": "Toy", "columns": ["team", "score"], "rows": rows}]}
