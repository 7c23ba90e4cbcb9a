"""The DP round's pages under its tabs: a level's page (*Submit*: its ledger, the query,
release and estimate forms; it reloads while a worker checks an estimate), and the
leaderboard (*Results*), shown after the close only (spec §7.6), as a page or CSV. The
tabs themselves are ``pwscup.dp.views.tabs``."""

from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone

from pwscup.accounts.access import kind_view
from pwscup.core.exports import csv_bytes_response
from pwscup.dp import engine, guide, services
from pwscup.dp.charts import l2_chart
from pwscup.dp.exports import leaderboard_csv_text, published_truths
from pwscup.dp.forms import (
    DeclaredUploadForm,
    EstimateUploadForm,
    QueryForm,
    ReleaseForm,
)
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.views.common import dp_round_or_404, level_or_404, team_or_404
from pwscup.kinds.tabs import RESULTS, SUBMIT, render_tab
from pwscup.submissions.round_pages import pending
from pwscup.submissions.selectors import live_etag


@kind_view("dp")
@login_required
def level_page(request, access, level):
    """A level's page; ``?fragment=1`` is its list of estimates alone, which the page's
    script (``static/live.js``) fetches when the team's live version moved while a worker
    checks one."""
    dp_round = dp_round_or_404(access)
    if access.team is None and level in {item["id"] for item in dp_round.config["levels"]}:
        # No team (never joined, or removed): the Submit tab offers to create or join one.
        return redirect("round_tab", access.competition.slug, access.round.slug, SUBMIT)
    team = team_or_404(access)
    # Read before the estimates: one that changes after it makes the next poll a 200.
    etag = live_etag(round_id=access.round.pk, team_id=team.pk)
    view = level_or_404(dp_round, team, level)
    if request.GET.get("fragment"):
        return render(
            request,
            "dp/_estimates.html",
            {
                "level": view,
                "pending": pending(view.estimates),
                "round_tz": access.round.timezone,
                "live_feedback": engine.live_feedback(dp_round.config),
            },
        )
    return render_level(request, access, dp_round, view, live_etag=etag)


def render_level(
    request,
    access,
    dp_round,
    view,
    *,
    query_form=None,
    release_form=None,
    status=200,
    live_etag: str = "",
):
    """The level's page. ``live_etag``: the team's live ETag read before the estimates
    (none: the page's script fetches the estimates once to be sure)."""
    config = dp_round.config
    parsed = engine.config_of(config)
    return render_tab(
        request,
        access,
        SUBMIT,
        "dp/level.html",
        {
            "dp_round": dp_round,
            "level": view,
            "state": guide.round_state(dp_round),
            "config": config,
            "interactive": parsed.interactive,
            "batch_platform": engine.batch_platform_enabled(config),
            "declared_mode": engine.declared_enabled(config),
            "upload_estimates": not engine.declared_only(config),
            "live_feedback": engine.live_feedback(config),
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
            "pending": pending(view.estimates),
            "live_etag": live_etag,
        },
        status=status,
    )


@kind_view("dp")
def leaderboard(request, access):
    """Per-level tables next to the baselines, and the overall ranking: after the close
    only (spec §7.6). Before, nobody (organizers included) sees a score here."""
    dp_round = dp_round_or_404(access)
    context = {"dp_round": dp_round, "closed": dp_round.has_closed(timezone.now())}
    if not services.dp_round_results_ready(dp_round=dp_round):
        context["scoring"] = context["closed"]
        return render_tab(request, access, RESULTS, "dp/leaderboard.html", context)
    boards = level_boards(dp_round=dp_round)
    overall = overall_ranking(boards)
    if request.GET.get("format") == "csv":
        return csv_bytes_response(leaderboard_csv_text(boards, overall), "dp_leaderboard.csv")
    return render_tab(
        request,
        access,
        RESULTS,
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
            "l2_chart": l2_chart(
                boards=boards, own_team_id=access.team.pk if access.team else None
            ),
        },
    )
