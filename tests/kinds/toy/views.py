"""The toy's pages: an upload form's target, a leaderboard CSV (the core's writer) and a
console creation page. Each is thin: the core's access checks, the toy's services."""

import datetime as dt

from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils import timezone
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.competitions.selectors import console_competition
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
def leaderboard_csv(request, access):
    return csv_response("toy.csv", ["team", "score"], selectors.toy_leaderboard(access.round))


def console_create(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    if request.method != "POST":
        return HttpResponse("toy creation form")
    now = timezone.now()
    round_ = services.toy_round_create(
        competition=competition,
        name=request.POST["name"],
        slug=request.POST["slug"],
        opens_at=now - dt.timedelta(hours=1),
        closes_at=now + dt.timedelta(days=1),
        daily_limit=int(request.POST.get("daily_limit") or 0) or None,
    )
    return redirect("console:round", competition.slug, round_.slug)
