"""The DP round's pages: thin adapters over ``services`` and ``selectors``.

A view under ``levels/<level>/queries`` answers JSON to a JSON request (409 on a ledger
refusal, 400 on a bad request) and redirects back to the level page after a form post.
"""

import functools

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.dp import engine, services
from pwscup.dp.exports import leaderboard_csv_text, ledger_csv_text, published_truths
from pwscup.dp.forms import (
    DeclaredUploadForm,
    EstimateFromForm,
    EstimateUploadForm,
    QueryForm,
    ReleaseForm,
)
from pwscup.dp.ledger import LedgerRefusal
from pwscup.dp.models import DPRound
from pwscup.dp.ranking import level_boards, overall_ranking
from pwscup.dp.selectors import charge_json, dp_round_of, team_charge, team_level, team_levels
from scoring.bounded_json import loads_bounded
from scoring.errors import ConfigError


def _dp(access) -> DPRound:
    try:
        return dp_round_of(access.round)
    except DPRound.DoesNotExist:
        raise Http404("No DP round.") from None


def _state(dp_round: DPRound, now) -> str:
    if now < dp_round.opens_at:
        return "upcoming"
    return "closed" if dp_round.has_closed(now) else "open"


def _level_url(access, level: str) -> str:
    return reverse(
        "dp:level",
        kwargs={
            "competition_slug": access.competition.slug,
            "round_slug": access.round.slug,
            "level": level,
        },
    )


def round_page(request, access):
    """The round's main page: levels, window, the team's ledgers; links to each level."""
    dp_round = _dp(access)
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


def _team_or_404(access):
    if access.team is None:
        raise Http404("Not in a team.")
    return access.team


def _level_or_404(dp_round, team, level):
    view = team_level(dp_round=dp_round, team=team, level=level)
    if view is None:
        raise Http404("No such level.")
    return view


@kind_view("dp")
@login_required
def level_page(request, access, level):
    dp_round = _dp(access)
    view = _level_or_404(dp_round, _team_or_404(access), level)
    response = _render_level(request, access, dp_round, view)
    if any(e.status in (e.Status.QUEUED, e.Status.RUNNING) for e in view.estimates):
        response["Refresh"] = "3"  # a worker checks an estimate: reload until its verdict
    return response


def _render_level(
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


def _wants_json(request) -> bool:
    return request.content_type == "application/json"


def _json_body(request):
    try:
        return loads_bounded(request.body or b"{}")
    except ConfigError:
        return None


def _refused(request, access, level, error, status: int):
    """A refused request: JSON ``{"error": …}`` to a JSON request, else a message and back
    to the level page. ``error`` is a text or a service's exception."""
    text = error if isinstance(error, str) else services.dp_error_text(error)
    if _wants_json(request):
        return JsonResponse({"error": text}, status=status)
    messages.error(request, text)
    return redirect(_level_url(access, level))


def _charge(request, access, level, *, service, payload, announce, extra=None):
    """Run one charging service (a query or a release) and answer: the charge as JSON, or a
    message (``announce(result, reply)``) and the level page at the new charge."""
    try:
        result = service(
            dp_round=_dp(access),
            team=_team_or_404(access),
            user=request.user,
            level=level,
            payload=payload,
        )
    except LedgerRefusal as refusal:
        return _refused(request, access, level, refusal, 409)
    except services.DPRequestError as error:
        return _refused(request, access, level, error, 400)
    reply = charge_json(result.charge, replayed=result.replayed)
    if extra is not None:
        reply.update(extra(reply))
    if _wants_json(request):
        return JsonResponse(reply)
    announce(result, reply)
    return redirect(f"{_level_url(access, level)}#charge-{reply['charge_no']}")


@kind_view("dp")
@login_required
@require_POST
def query(request, access, level):
    """POST …/levels/<level>/queries: one histogram or count query (spec §7.2)."""
    if _wants_json(request):
        payload = _json_body(request)
        if payload is None:
            return JsonResponse({"error": _("A query must be a JSON object")}, status=400)
    else:
        dp_round = _dp(access)
        form = QueryForm(request.POST, config=dp_round.config)
        if not form.is_valid():
            view = _level_or_404(dp_round, _team_or_404(access), level)
            return _render_level(request, access, dp_round, view, query_form=form, status=400)
        payload = form.payload()

    def announce(result, reply):
        if result.replayed:
            messages.info(
                request, _("This query was already answered: the stored answer is shown.")
            )
        else:
            messages.success(
                request,
                _("Query %(n)s answered; %(eps)s charged.")
                % {"n": reply["charge_no"], "eps": reply["epsilon"]},
            )

    return _charge(
        request, access, level, service=services.dp_query_answer, payload=payload, announce=announce
    )


@kind_view("dp")
@login_required
@require_POST
def release(request, access, level):
    """POST …/levels/<level>/releases: a platform-run Pk-anonymized release (spec §7.3)."""
    if _wants_json(request):
        payload = _json_body(request)
        if payload is None:
            return JsonResponse(
                {"error": _("A release declaration must be a JSON object")}, status=400
            )
    else:
        config = _dp(access).config
        form = ReleaseForm(
            request.POST,
            config=config,
            attributes=list(engine.config_of(config).workload_attributes),
        )
        if not form.is_valid():
            return _refused(request, access, level, _("Check the release form."), 400)
        payload = form.payload()

    def release_url(reply):
        kwargs = {
            "competition_slug": access.competition.slug,
            "round_slug": access.round.slug,
            "level": level,
            "number": reply["charge_no"],
        }
        return {"release_url": reverse("dp:release_csv", kwargs=kwargs)}

    def announce(result, reply):
        messages.success(
            request,
            _("Release %(n)s is ready; %(eps)s charged.")
            % {"n": reply["charge_no"], "eps": reply["epsilon"]},
        )

    return _charge(
        request,
        access,
        level,
        service=services.dp_release_request,
        payload=payload,
        announce=announce,
        extra=release_url,
    )


@kind_view("dp")
@login_required
def release_csv(request, access, level, number):
    dp_round = _dp(access)
    team = _team_or_404(access)
    charge = team_charge(dp_round=dp_round, team=team, level=level, number=number)
    if charge is None or not charge.release_file:
        raise Http404("No such release.")
    return private_file_response(charge.release_file, f"release_{level}_{number}.csv")


@kind_view("dp")
@login_required
def ledger_csv(request, access, level):
    """Every charge of the team's ledger at ``level`` with its answer, as CSV (free)."""
    dp_round = _dp(access)
    team = _team_or_404(access)
    view = _level_or_404(dp_round, team, level)
    response = HttpResponse(ledger_csv_text(view), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ledger_{team.slug}_{level}.csv"'
    return response


def _estimate(request, access, level, make):
    """Run one estimate service (``make(dp_round=…, team=…, user=…, level=…)``) and go back
    to the level's estimates with its verdict."""
    try:
        estimate = make(
            dp_round=_dp(access), team=_team_or_404(access), user=request.user, level=level
        )
    except services.DPRequestError as error:
        return _refused(request, access, level, error, 400)
    except Refused as refusal:
        return _refused(request, access, level, refusal.message, refusal.status)
    if estimate.status in (estimate.Status.QUEUED, estimate.Status.RUNNING):
        messages.info(
            request,
            _("Estimate #%(n)s received: a worker checks it; this page shows the verdict.")
            % {"n": estimate.number},
        )
    elif estimate.status == estimate.Status.VALID:
        messages.success(
            request,
            _("Estimate accepted (format checked). It is scored when the level closes."),
        )
    else:
        messages.error(
            request,
            _("Estimate rejected: %(reason)s") % {"reason": estimate.message_in(get_language())},
        )
    return redirect(f"{_level_url(access, level)}#estimates")


@kind_view("dp")
@login_required
@require_POST
def estimate_upload(request, access, level):
    form = EstimateUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused(request, access, level, _("Choose an estimate.csv file."), 400)
    uploaded = form.cleaned_data["file"]
    return _estimate(
        request,
        access,
        level,
        functools.partial(services.dp_estimate_upload, uploaded_file=uploaded),
    )


@kind_view("dp")
@login_required
@require_POST
def estimate_from(request, access, level):
    """Build the estimate from a release (BT/BR/BI) or from a histogram answer (free)."""
    form = EstimateFromForm(request.POST)
    unclear = _("Choose a release or an answer.")
    if not form.is_valid():
        return _refused(request, access, level, unclear, 400)
    kind, _sep, number = form.cleaned_data["source"].partition("-")
    try:
        charge_no = int(number)
    except ValueError:
        return _refused(request, access, level, unclear, 400)
    if kind == "release":
        make = functools.partial(
            services.dp_estimate_from_release,
            charge_no=charge_no,
            estimator=form.cleaned_data.get("estimator") or "BT",
        )
    elif kind == "answer":
        make = functools.partial(services.dp_estimate_from_answer, charge_no=charge_no)
    else:
        return _refused(request, access, level, unclear, 400)
    return _estimate(request, access, level, make)


@kind_view("dp")
@login_required
@require_POST
def declared_upload(request, access, level):
    form = DeclaredUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused(request, access, level, _("Choose a file and write its declaration."), 400)
    uploaded = form.cleaned_data["file"]
    return _estimate(
        request,
        access,
        level,
        functools.partial(
            services.dp_declared_upload,
            uploaded_file=uploaded,
            declaration_raw=form.cleaned_data["declaration"],
        ),
    )


@kind_view("dp")
def leaderboard(request, access):
    """Per-level tables next to the baselines, and the overall ranking: after the close
    only (spec §7.6). Before, nobody (organizers included) sees a score here."""
    dp_round = _dp(access)
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
