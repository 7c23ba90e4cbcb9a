"""The DP round's pages: thin adapters over ``services`` and ``selectors``.

A view under ``levels/<level>/queries`` answers JSON to a JSON request (409 on a ledger
refusal, 400 on a bad request) and redirects back to the level page after a form post.
"""

import csv
import io
import json
from fractions import Fraction

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.core.access import private_file_response
from pwscup.dp import engine, services
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
from pwscup.dp.selectors import dp_round_of, team_charge, team_level, team_levels
from pwscup.kinds.views import kind_view
from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text


def _dp(access) -> DPRound:
    try:
        return dp_round_of(access.round)
    except DPRound.DoesNotExist:
        raise Http404("No DP round.") from None


def _message(error) -> str:
    """A ``DPError`` (or a refusal carrying one) in the reader's language."""
    inner = getattr(error, "error", error)
    if isinstance(inner, DPError):
        return inner.render(get_language())
    return str(inner)


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
    if dp_round.has_closed(now) and dp_round.scored_at is None:
        services.dp_round_score_request(dp_round=dp_round)
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


@kind_view("dp")
@login_required
def level_page(request, access, level):
    dp_round = _dp(access)
    team = _team_or_404(access)
    view = team_level(dp_round=dp_round, team=team, level=level)
    if view is None:
        raise Http404("No such level.")
    return _render_level(request, access, dp_round, view)


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
        return json.loads(request.body or b"{}")
    except ValueError:
        return None


def _charge_reply(result) -> dict:
    charge = result.charge
    spent = charge.spent_after
    budget = Fraction(charge.ledger.budget)

    reply = {
        "charge_no": charge.number,
        "kind": charge.kind,
        "epsilon": charge.epsilon,
        "spent": spent,
        "remaining": exact_text(budget - Fraction(spent)),
        **charge.reply,
    }
    if result.replayed:
        reply["replayed"] = True
    return reply


@kind_view("dp")
@login_required
@require_POST
def query(request, access, level):
    """POST …/levels/<level>/queries: one histogram or count query (spec §7.2)."""
    dp_round = _dp(access)
    team = _team_or_404(access)
    config = dp_round.config
    if _wants_json(request):
        payload = _json_body(request)
        if payload is None:
            return JsonResponse({"error": _("A query must be a JSON object")}, status=400)
    else:
        form = QueryForm(request.POST, config=config)
        if not form.is_valid():
            view = team_level(dp_round=dp_round, team=team, level=level)
            if view is None:
                raise Http404("No such level.")
            return _render_level(request, access, dp_round, view, query_form=form, status=400)
        payload = form.payload()
    try:
        if not engine.interactive_enabled(config):
            raise services.DPRequestError(_("This round has no interactive track"))
        result = services.dp_query_answer(
            dp_round=dp_round, team=team, user=request.user, level=level, payload=payload
        )
    except LedgerRefusal as refusal:
        return _refused(request, access, level, _message(refusal), 409)
    except services.DPRequestError as error:
        return _refused(request, access, level, _message(error), 400)
    reply = _charge_reply(result)
    if _wants_json(request):
        return JsonResponse(reply)
    if result.replayed:
        messages.info(request, _("This query was already answered: the stored answer is shown."))
    else:
        messages.success(
            request,
            _("Query %(n)s answered; %(eps)s charged.")
            % {"n": reply["charge_no"], "eps": reply["epsilon"]},
        )
    return redirect(f"{_level_url(access, level)}#charge-{reply['charge_no']}")


def _refused(request, access, level, text: str, status: int):
    if _wants_json(request):
        return JsonResponse({"error": text}, status=status)
    messages.error(request, text)
    response = redirect(_level_url(access, level))
    return response


@kind_view("dp")
@login_required
@require_POST
def release(request, access, level):
    """POST …/levels/<level>/releases: a platform-run Pk-anonymized release (spec §7.3)."""
    dp_round = _dp(access)
    team = _team_or_404(access)
    config = dp_round.config
    if _wants_json(request):
        payload = _json_body(request)
        if payload is None:
            return JsonResponse(
                {"error": _("A release declaration must be a JSON object")}, status=400
            )
    else:
        form = ReleaseForm(
            request.POST,
            config=config,
            attributes=list(engine.config_of(config).workload_attributes),
        )
        if not form.is_valid():
            return _refused(request, access, level, _("Check the release form."), 400)
        payload = form.payload()
    try:
        result = services.dp_release_request(
            dp_round=dp_round, team=team, user=request.user, level=level, payload=payload
        )
    except LedgerRefusal as refusal:
        return _refused(request, access, level, _message(refusal), 409)
    except services.DPRequestError as error:
        return _refused(request, access, level, _message(error), 400)
    reply = _charge_reply(result)
    reply["release_url"] = reverse(
        "dp:release_csv",
        kwargs={
            "competition_slug": access.competition.slug,
            "round_slug": access.round.slug,
            "level": level,
            "number": reply["charge_no"],
        },
    )
    if _wants_json(request):
        return JsonResponse(reply)
    messages.success(
        request,
        _("Release %(n)s is ready; %(eps)s charged.")
        % {"n": reply["charge_no"], "eps": reply["epsilon"]},
    )
    return redirect(f"{_level_url(access, level)}#charge-{reply['charge_no']}")


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
    view = team_level(dp_round=dp_round, team=team, level=level)
    if view is None:
        raise Http404("No such level.")
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "charge_no",
            "kind",
            "created_at",
            "request_id",
            "epsilon",
            "spent_after",
            "type",
            "attributes",
            "where",
            "sensitivity",
            "lambda",
            "cell",
            "answer",
        ]
    )
    for charge in view.charges:
        reply = charge.reply
        base = [
            charge.number,
            charge.kind,
            charge.created_at.isoformat(),
            charge.request_id,
            charge.epsilon,
            charge.spent_after,
        ]
        if charge.kind == "query":
            where = ";".join(f"{k}={v}" for k, v in (reply.get("where") or {}).items())
            for cell, value in zip(reply["cells"], reply["answer"], strict=False):
                writer.writerow(
                    [
                        *base,
                        reply["type"],
                        "|".join(reply["attributes"]),
                        where,
                        reply["sensitivity"],
                        repr(reply["lambda"]),
                        "|".join(cell),
                        repr(value),
                    ]
                )
        else:
            groups = ";".join(
                "+".join(g["attributes"]) + f":rho={g['rho']}" for g in reply.get("groups", [])
            )
            writer.writerow([*base, "release", groups, "", "", "", f"k={reply.get('k')}", ""])
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="ledger_{team.slug}_{level}.csv"'
    return response


@kind_view("dp")
@login_required
@require_POST
def estimate_upload(request, access, level):
    dp_round = _dp(access)
    team = _team_or_404(access)
    form = EstimateUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused(request, access, level, _("Choose an estimate.csv file."), 400)
    uploaded = form.cleaned_data["file"]
    try:
        estimate = services.dp_estimate_upload(
            dp_round=dp_round,
            team=team,
            user=request.user,
            level=level,
            content=uploaded.read(),
            filename=uploaded.name,
        )
    except services.DPRequestError as error:
        return _refused(request, access, level, _message(error), 400)
    _estimate_message(request, estimate)
    return redirect(f"{_level_url(access, level)}#estimates")


def _estimate_message(request, estimate):
    if estimate.status == estimate.Status.VALID:
        messages.success(
            request,
            _("Estimate accepted (format checked). It is scored when the level closes."),
        )
    else:
        messages.error(
            request,
            _("Estimate rejected: %(reason)s") % {"reason": estimate.message_in(get_language())},
        )


@kind_view("dp")
@login_required
@require_POST
def estimate_from(request, access, level):
    """Build the estimate from a release (BT/BR/BI) or from a histogram answer (free)."""
    dp_round = _dp(access)
    team = _team_or_404(access)
    form = EstimateFromForm(request.POST)
    if not form.is_valid():
        return _refused(request, access, level, _("Choose a release or an answer."), 400)
    kind, _sep, number = form.cleaned_data["source"].partition("-")
    try:
        number = int(number)
        if kind == "release":
            estimate = services.dp_estimate_from_release(
                dp_round=dp_round,
                team=team,
                user=request.user,
                level=level,
                charge_no=number,
                estimator=form.cleaned_data.get("estimator") or "BT",
            )
        elif kind == "answer":
            estimate = services.dp_estimate_from_answer(
                dp_round=dp_round, team=team, user=request.user, level=level, charge_no=number
            )
        else:
            raise ValueError(kind)
    except ValueError:
        return _refused(request, access, level, _("Choose a release or an answer."), 400)
    except services.DPRequestError as error:
        return _refused(request, access, level, _message(error), 400)
    _estimate_message(request, estimate)
    return redirect(f"{_level_url(access, level)}#estimates")


@kind_view("dp")
@login_required
@require_POST
def declared_upload(request, access, level):
    dp_round = _dp(access)
    team = _team_or_404(access)
    form = DeclaredUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _refused(request, access, level, _("Choose a file and write its declaration."), 400)
    uploaded = form.cleaned_data["file"]
    try:
        estimate = services.dp_declared_upload(
            dp_round=dp_round,
            team=team,
            user=request.user,
            level=level,
            content=uploaded.read(),
            filename=uploaded.name,
            declaration_raw=form.cleaned_data["declaration"],
        )
    except services.DPRequestError as error:
        return _refused(request, access, level, _message(error), 400)
    _estimate_message(request, estimate)
    return redirect(f"{_level_url(access, level)}#estimates")


@kind_view("dp")
def leaderboard(request, access):
    """Per-level tables next to the baselines, and the overall ranking: after the close
    only (spec §7.6). Before, nobody (organizers included) sees a score here."""
    dp_round = _dp(access)
    now = timezone.now()
    if not dp_round.has_closed(now):
        return render(
            request,
            "dp/leaderboard.html",
            {
                "access": access,
                "round": access.round,
                "dp_round": dp_round,
                "closed": False,
                "round_tz": access.round.timezone,
            },
        )
    if dp_round.scored_at is None:
        services.dp_round_score_request(dp_round=dp_round)
        return render(
            request,
            "dp/leaderboard.html",
            {
                "access": access,
                "round": access.round,
                "dp_round": dp_round,
                "closed": True,
                "scoring": True,
                "round_tz": access.round.timezone,
            },
        )
    boards = level_boards(dp_round=dp_round)
    overall = overall_ranking(boards)
    if request.GET.get("format") == "csv":
        return _leaderboard_csv(boards, overall)
    return render(
        request,
        "dp/leaderboard.html",
        {
            "access": access,
            "round": access.round,
            "dp_round": dp_round,
            "closed": True,
            "boards": boards,
            "overall": overall,
            "targets": [t["id"] for t in dp_round.config["workload"]],
            "rank_metric": dp_round.config.get("rank_metric", "l2"),
            "gate": dp_round.config.get("spearman_gate"),
            "own_team": access.team,
            "round_tz": access.round.timezone,
            "truths": _published_truths(dp_round),
        },
    )


def _published_truths(dp_round) -> list | None:
    """The true histograms, after the close, only if the organizer set ``publish_truth``."""
    if not dp_round.config.get("publish_truth") or dp_round.scored_at is None:
        return None
    truths = engine.round_truths(dp_round.round)
    parsed = engine.config_of(dp_round.config)
    from scoring.dp.data import target_cells

    return [
        {
            "id": target.id,
            "rows": [
                (", ".join(cell), count)
                for cell, count in zip(
                    target_cells(parsed, target.attributes), truths[target.id], strict=True
                )
            ],
        }
        for target in parsed.workload
    ]


def _leaderboard_csv(boards, overall) -> HttpResponse:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(
        [
            "level",
            "table",
            "rank",
            "team",
            "label",
            "epsilon_spent",
            "mean_l2",
            "mean_spearman",
            "passes_gate",
        ]
    )
    for board in boards:
        for table, rows in (("verified", board.verified), ("declared", board.declared)):
            for row in rows:
                writer.writerow(
                    [
                        board.level,
                        table,
                        row.rank,
                        row.team.name,
                        row.label,
                        row.spent_text,
                        f"{row.mean_l2:.6f}",
                        f"{row.mean_spearman:.6f}",
                        row.passes_gate,
                    ]
                )
        for row in board.baselines.get("rows", []):
            writer.writerow(
                [
                    board.level,
                    "baseline",
                    "",
                    row["label"],
                    row["label"],
                    row.get("epsilon", ""),
                    f"{row['l2']:.6f}",
                    f"{row['spearman']:.6f}" if row.get("spearman") is not None else "",
                    "",
                ]
            )
    for row in overall:
        writer.writerow(["overall", "rank_sum", row.rank, row.team.name, "", "", row.total, "", ""])
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="dp_leaderboard.csv"'
    return response
