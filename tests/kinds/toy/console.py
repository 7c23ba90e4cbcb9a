"""The toy's organizer console: its round creation page (the console's competition page
shows a "New round" button per kind, ``RoundKind.console_create_url``) and its panel on the
console's round page."""

import datetime as dt

from django.http import HttpResponse
from django.shortcuts import redirect
from django.urls import path
from django.utils import timezone
from django.utils.html import format_html

from pwscup.competitions.selectors import console_competition
from tests.kinds.toy import services


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


def panel_html(request, round):
    """What the console's round page shows of the toy (``RoundKind.console_panel``)."""
    return format_html("<p data-testid='toy-panel'>toy panel of {}</p>", round.slug)


urlpatterns = [path("new/", console_create, name="create")]
