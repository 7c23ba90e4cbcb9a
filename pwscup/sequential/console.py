"""The organizer's side: the page creating a sequential round, and the console panel of one
(masters, timeline T(1) … T(n) with arrivals and departures, freeze, draw, publish)."""

import json

from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.shortcuts import redirect, render
from django.urls import reverse

import scoring
from pwscup.accounts.models import Team
from pwscup.competitions.selectors import console_competition
from pwscup.core.form_fields import add_errors
from pwscup.sequential import engine, selectors, services
from pwscup.sequential.forms import MasterUploadForm, SequentialRoundForm


@login_required
def round_create(request, competition_slug):
    competition = console_competition(user=request.user, slug=competition_slug)
    form = SequentialRoundForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            sequential = services.sequential_round_create(
                competition=competition,
                name=data["name"],
                slug=data["slug"],
                config=data["config"],
                master_file=data["master"],
                pool_file=data["pool"],
                user=request.user,
                **form.schedule(),
            )
        except ValidationError as error:
            add_errors(form, error)
        else:
            return redirect(
                reverse("console:round", args=[competition.slug, sequential.round.slug])
            )
    return render(
        request, "sequential/console_create.html", {"competition": competition, "form": form}
    )


def panel_context(*, request, round) -> dict:
    """What the console panel shows: configuration, each master's timeline, the steps."""
    sequential = selectors.sequential_of(round=round)
    masters = []
    teams = {t.pk: t for t in Team.objects.filter(competition=round.competition)}
    for master in sequential.masters.order_by("team__name"):
        try:
            frame = services.master_frame(master=master)
            timeline = engine.timeline(frame)
            problem = ""
        except scoring.ScoringError as error:
            timeline, problem = [], str(error)
        masters.append(
            {
                "master": master,
                "team": teams.get(master.team_id),
                "timeline": timeline,
                "problem": problem,
            }
        )
    with_master = {m["master"].team_id for m in masters}
    missing = [t for t in teams.values() if t.pk not in with_master and None not in with_master]
    return {
        "round": round,
        "seq": sequential,
        "config": sequential.config,
        "config_json": json.dumps(sequential.config, indent=2, ensure_ascii=False),
        "masters": masters,
        "teams_without_master": sorted(missing, key=lambda t: t.name),
        "open_steps": selectors.open_steps(sequential=sequential),
        "next_step": sequential.frozen_steps + 1,
        "master_form": MasterUploadForm(competition=round.competition),
        "rows": selectors.leaderboard_rows(sequential=sequential),
        "uploads": sequential.releases.count(),
        "schedule": selectors.step_schedule(sequential=sequential),
    }
