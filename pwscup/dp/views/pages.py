"""The DP round's pages: the round page (levels, window, the team's ledgers), a level's page
(its ledger, the query, release and estimate forms; it reloads while a worker checks an
estimate), and the leaderboard, shown after the close only (spec §7.6), as a page or CSV."""

from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import render
from django.utils import timezone

from pwscup.accounts.access import kind_view
from pwscup.dp import engine, services
from pwscup.dp.exports import leaderboard_csv_text, published_truths
from pwscup.dp.forms import (
    DeclaredUploadForm,
    EstimateUploadForm,
    QueryForm,
    ReleaseForm,
)
from pwscup.dp.models import DPRound
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.selectors import team_levels
from pwscup.dp.views.common import dp_round_or_404, level_or_404, team_or_404


def _state(dp_round: DPRound, now) -> str:
    if now < dp_round.opens_at:
        return "upcoming"
    return "closed" if dp_round.has_closed(now) else "open"


def round_page(request, access):
    """The round's main page: levels, window, the team's ledgers; links to each level."""
    dp_round = dp_round_or_404(access)
    now = timezone.now()
    services.dp_round_score_request(dp_round=dp_round)  # a closed round not scored yet
    return render(
        request,
        "dp/round.html",
        {
            "access": access,
            "round": access.round,
            "dp_round": dp_round,
            "team": access.team,
            "state": _state(dp_round, now),
            "levels": team_levels(dp_round=dp_round, team=access.team),
            "config": dp_round.config,
            "round_tz": access.round.timezone,
        },
    )


@kind_view("dp")
@login_required
def level_page(request, access, level):
    dp_round = dp_round_or_404(access)
    view = level_or_404(dp_round, team_or_404(access), level)
    response = render_level(request, access, dp_round, view)
    if any(e.status in (e.Status.QUEUED, e.Status.RUNNING) for e in view.estimates):
        response["Refresh"] = "3"  # a worker checks an estimate: reload until its verdict
    return response


def render_level(
    request, access, dp_round, view, *, query_form=None, release_form=None, status=200
):
    config = dp_round.config
    parsed = engine.config_of(config)
    now = timezone.now()
    return render(
        request,
        "dp/level.html",
        {
            "access": access,
            "round": access.round,
            "dp_round": dp_round,
            "team": access.team,
            "level": view,
            "state": _state(dp_round, now),
            "config": config,
            "round_tz": access.round.timezone,
            "interactive": parsed.interactive,
            "batch_platform": engine.batch_platform_enabled(config),
            "declared_mode": engine.declared_enabled(config),
            "upload_estimates": not engine.declared_only(config),
            "query_form": query_form or QueryForm(config=config),
            "release_form": release_form
            or ReleaseForm(config=config, attributes=list(parsed.workload_attributes)),
            "estimate_form": EstimateUploadForm(),
            "declared_form": DeclaredUploadForm(),
            "targets": [
                {"id": t.id, "attributes": t.attributes, "cells": parsed.cells(t.id)}
                for t in parsed.workload
            ],
            "header": ",".join(["target", *parsed.workload_attributes, "count"]),
        },
        status=status,
    )


@kind_view("dp")
def leaderboard(request, access):
    """Per-level tables next to the baselines, and the overall ranking: after the close
    only (spec §7.6). Before, nobody (organizers included) sees a score here."""
    dp_round = dp_round_or_404(access)
    context = {
        "access": access,
        "round": access.round,
        "dp_round": dp_round,
        "closed": dp_round.has_closed(timezone.now()),
        "round_tz": access.round.timezone,
    }
    if not services.dp_round_results_ready(dp_round=dp_round):
        context["scoring"] = context["closed"]
        return render(request, "dp/leaderboard.html", context)
    boards = level_boards(dp_round=dp_round)
    overall = overall_ranking(boards)
    if request.GET.get("format") == "csv":
        response = HttpResponse(
            leaderboard_csv_text(boards, overall), content_type="text/csv; charset=utf-8"
        )
        response["Content-Disposition"] = 'attachment; filename="dp_leaderboard.csv"'
        return response
    return render(
        request,
        "dp/leaderboard.html",
        {
            **context,
            "boards": boards,
            "overall": overall,
            "targets": [t["id"] for t in dp_round.config["workload"]],
            "rank_metric": dp_round.config.get("rank_metric", "l2"),
            "gate": dp_round.config.get("spearman_gate"),
            "own_team": access.team,
            "truths": published_truths(dp_round),
        },
    )
