"""The DP round's charges: an interactive query (spec §7.2) and a platform-run Pk-anonymized
release (§7.3), each charged to the team's ledger of a level, and the free downloads of a
release and of the ledger. A query or release answers JSON to a JSON request (409 on a
ledger refusal, 400 on a bad request) and redirects back to the level page after a form."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.core.exports import csv_bytes_response
from pwscup.core.files import private_file_response
from pwscup.dp import engine, services
from pwscup.dp.exports import ledger_csv_text
from pwscup.dp.forms import QueryForm, ReleaseForm
from pwscup.dp.selectors import charge_json, team_charge
from pwscup.dp.views.common import (
    dp_round_or_404,
    json_body,
    level_or_404,
    level_url,
    refused,
    team_level_run,
    team_or_404,
    wants_json,
)
from pwscup.dp.views.pages import render_level


def _charge(
    request, access, level, *, service, not_an_object, read_form, charged, replayed=None, extra=None
):
    """Run one charging service (a query or a release) and answer: the charge as JSON, or a
    message and the level page at the new charge. The message is ``charged`` (with the
    charge's ``%(n)s`` and ``%(eps)s``), or ``replayed`` when given and the request had been
    answered already.

    The service's payload is a JSON request's object (400 with ``not_an_object`` when it is
    none), else what ``read_form()`` reads from the form: a payload, or the response that
    refuses the form."""
    if wants_json(request):
        payload = json_body(request)
        if payload is None:
            return JsonResponse({"error": not_an_object}, status=400)
    else:
        payload = read_form()
        if isinstance(payload, HttpResponse):
            return payload

    def answer(result):
        reply = charge_json(result.charge, replayed=result.replayed)
        if extra is not None:
            reply.update(extra(reply))
        if wants_json(request):
            return JsonResponse(reply)
        if result.replayed and replayed is not None:
            messages.info(request, replayed)
        else:
            messages.success(request, charged % {"n": reply["charge_no"], "eps": reply["epsilon"]})
        return redirect(f"{level_url(access, level)}#charge-{reply['charge_no']}")

    return team_level_run(request, access, level, service, answer, payload=payload)


@kind_view("dp")
@login_required
@require_POST
def query(request, access, level):
    """POST …/levels/<level>/queries: one histogram or count query (spec §7.2)."""

    def read_form():
        dp_round = dp_round_or_404(access)
        form = QueryForm(request.POST, config=dp_round.config)
        if not form.is_valid():
            view = level_or_404(dp_round, team_or_404(access), level)
            return render_level(request, access, dp_round, view, query_form=form, status=400)
        return form.payload()

    return _charge(
        request,
        access,
        level,
        service=services.dp_query_answer,
        not_an_object=_("A query must be a JSON object"),
        read_form=read_form,
        charged=_("Query %(n)s answered; %(eps)s charged."),
        replayed=_("This query was already answered: the stored answer is shown."),
    )


@kind_view("dp")
@login_required
@require_POST
def release(request, access, level):
    """POST …/levels/<level>/releases: a platform-run Pk-anonymized release (spec §7.3)."""

    def read_form():
        config = dp_round_or_404(access).config
        form = ReleaseForm(
            request.POST,
            config=config,
            attributes=list(engine.config_of(config).workload_attributes),
        )
        if not form.is_valid():
            return refused(request, access, level, _("Check the release form."), 400)
        return form.payload()

    def release_url(reply):
        kwargs = {
            "competition_slug": access.competition.slug,
            "round_slug": access.round.slug,
            "level": level,
            "number": reply["charge_no"],
        }
        return {"release_url": reverse("dp:release_csv", kwargs=kwargs)}

    return _charge(
        request,
        access,
        level,
        service=services.dp_release_request,
        not_an_object=_("A release declaration must be a JSON object"),
        read_form=read_form,
        charged=_("Release %(n)s is ready; %(eps)s charged."),
        extra=release_url,
    )


@kind_view("dp")
@login_required
def release_csv(request, access, level, number):
    dp_round = dp_round_or_404(access)
    team = team_or_404(access)
    charge = team_charge(dp_round=dp_round, team=team, level=level, number=number)
    if charge is None or not charge.release_file:
        raise Http404
    return private_file_response(charge.release_file, f"release_{level}_{number}.csv")


@kind_view("dp")
@login_required
def ledger_csv(request, access, level):
    """Every charge of the team's ledger at ``level`` with its answer, as CSV (free)."""
    dp_round = dp_round_or_404(access)
    team = team_or_404(access)
    view = level_or_404(dp_round, team, level)
    return csv_bytes_response(ledger_csv_text(view), f"ledger_{team.slug}_{level}.csv")
