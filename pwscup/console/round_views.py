"""The round control page of every kind (its panel and actions drawn by the kind) and the
confirmation page of a lifecycle action."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render

from pwscup.competitions.selectors import audit_entries, console_round
from pwscup.core.errors import Refused
from pwscup.kinds import kind_of


@login_required
def round_control(request, competition_slug, round_slug):
    """The round's console page: the round's kind draws its panel (``console_panel``) and
    lists its lifecycle actions (``console_actions``)."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    kind = kind_of(round_)
    return render(
        request,
        "console/round.html",
        {
            "competition": round_.competition,
            "round": round_,
            "kind": kind,
            "panel": kind.console_panel(request, round_),
            "actions": kind.console_actions(round_),
            "audit": audit_entries(competition=round_.competition, round=round_),
        },
    )


@login_required
def round_action(request, competition_slug, round_slug, action):
    """One lifecycle action of any kind: its confirmation page (GET), done on POST only."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    chosen = kind_of(round_).console_actions(round_).get(action)
    if chosen is None:
        raise Http404
    if request.method == "POST":
        try:
            messages.success(request, chosen.perform(user=request.user, round=round_))
        except Refused as refusal:
            messages.error(request, refusal.message)
        return redirect("console:round", competition_slug, round_slug)
    return render(
        request,
        "console/round_action.html",
        {
            "competition": round_.competition,
            "round": round_,
            "action": chosen,
            "action_name": action,
            "details": chosen.details(round=round_) if chosen.details else [],
        },
    )
