"""The toy's pages: an upload form's target, a leaderboard CSV (the core's writer) and a
greeting. Each is thin: the core's access checks, the toy's services and selectors."""

from django.http import HttpResponse, JsonResponse
from django.urls import path
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.core.exports import csv_response
from tests.kinds.toy import selectors, services


@kind_view("toygame")
@require_POST
def upload(request, access):
    if access.team is None:
        return JsonResponse({"error": "no team"}, status=403)
    try:
        kept = services.toy_upload(
            round=access.round, team=access.team, uploaded_file=request.FILES["file"]
        )
    except Refused as refusal:
        return JsonResponse({"error": refusal.message}, status=refusal.status)
    return JsonResponse({"number": kept.number, "status": kept.status}, status=202)


@kind_view("toygame")
def hello(request, access, word):
    """A page of the kind's own, under the round (the core's access rules apply)."""
    return HttpResponse(f"hello {word} from {access.round.name} ({access.competition.slug})")


@kind_view("toygame")
def leaderboard_csv(request, access):
    return csv_response("toy.csv", ["team", "score"], selectors.toy_leaderboard(access.round))


urlpatterns = [
    path("toy/upload/", upload, name="upload"),
    path("toy/leaderboard.csv", leaderboard_csv, name="leaderboard"),
    path("hello/<slug:word>/", hello, name="hello"),
]
