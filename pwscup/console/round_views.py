"""The round control page of every kind (its panel and actions drawn by the kind), the
confirmation page of a lifecycle action and the round's deletion."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.competitions import attack_top
from pwscup.competitions.selectors import audit_entries, console_round
from pwscup.competitions.services import round_core_update
from pwscup.competitions.total_services import ATTACK_TOP_RULE
from pwscup.competitions.totals import offered_names
from pwscup.console.forms import QuotaResetForm, TotalFormulaForm
from pwscup.console.round_delete import round_delete, round_delete_refusal
from pwscup.core.errors import Refused
from pwscup.core.time_zones import in_zone_text
from pwscup.kinds import kind_of
from pwscup.kinds.actions import replaced_answer
from pwscup.submissions.services.windows import window_not_open_yet
from pwscup.submissions.voids import voidable_types


@login_required
def round_control(request, competition_slug, round_slug):
    """The round's console page: the round's kind draws its panel (``console_panel``) and
    lists its lifecycle actions (``console_actions``)."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    return round_page(request, round_)


def round_page(request, round_, *, total_form=None, choice_formset=None):
    """The round's console page; ``total_form``: the total formula's form as posted, with
    its message next to the field (``pwscup.console.total_views``); ``choice_formset``: the
    data choice card's rows as posted (``pwscup.console.choice_views``)."""
    kind = kind_of(round_)
    if total_form is None:
        total_form = TotalFormulaForm(
            initial={
                field: getattr(round_, field)
                for field in ("total_formula", "attack_top_n", *ATTACK_TOP_RULE)
            },
            offers_attack_top=attack_top.offered(round_),
        )
    total_names, attack_top_withheld = offered_names(round=round_)
    return render(
        request,
        "console/round.html",
        {
            "total_form": total_form,
            "choice_formset": choice_formset,
            "total_names": total_names,
            "attack_top_withheld": attack_top_withheld,
            "competition": round_.competition,
            "round": round_,
            "kind": kind,
            "panel": kind.console_panel(request, round_),
            "actions": kind.console_actions(round_),
            "voidable": bool(voidable_types(kind)),
            "quota_form": QuotaResetForm(initial={"quota_reset_hour": round_.quota_reset_hour}),
            "audit": audit_entries(competition=round_.competition, round=round_),
        },
    )


@login_required
def round_action(request, competition_slug, round_slug, action):
    """One lifecycle action of any kind: its confirmation page (GET), done on POST only."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    offered = kind_of(round_).console_actions(round_)
    chosen = offered.get(action)
    if chosen is None:
        # Done already (a reload, a second click): the round's page says so.
        answer = replaced_answer(offered, action)
        if answer is None:
            raise Http404
        messages.info(request, answer)
        return redirect("console:round", competition_slug, round_slug)
    # Why the action would change nothing now (no phase open to close): said in place of the
    # button, and in answer to a POST (a page opened earlier), which changes nothing.
    refusal = chosen.refusal(round=round_) if chosen.refusal else ""
    if request.method == "POST" and refusal:
        messages.error(request, refusal)
        return redirect("console:round", competition_slug, round_slug)
    if request.method == "POST":
        # An action ending a window takes the box *end it before it opens* (``RoundAction.ends``).
        early = {"early": request.POST.get("early") == "on"} if chosen.ends else {}
        try:
            messages.success(request, chosen.perform(user=request.user, round=round_, **early))
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
            "details": chosen.details(round=round_) if chosen.details and not refusal else [],
            "refusal": refusal,
            "before_opening": None if refusal else before_opening(chosen, round_),
        },
    )


def before_opening(action, round_) -> dict | None:
    """The window ``action`` ends (``RoundAction.ends``) when it has not opened yet: its name
    and its opening in the round's time zone, for the confirmation's notice and box."""
    window = action.ends(round=round_) if action.ends else None
    if window is None or not window_not_open_yet(opens_at=window.opens_at, now=timezone.now()):
        return None
    return {"label": window.label, "opens": in_zone_text(window.opens_at, round_.timezone)}


@login_required
@require_POST
def round_quota(request, competition_slug, round_slug):
    """The hour the round's daily limits reset at (every kind: a core setting of the round),
    saved by ``round_core_update``."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    form = QuotaResetForm(request.POST)
    try:
        if not form.is_valid():
            raise ValidationError(form.errors["quota_reset_hour"])
        changed = round_core_update(
            user=request.user,
            round=round_,
            name=round_.name,
            slug=round_.slug,
            order=round_.order,
            timezone=round_.timezone,
            quota_reset_hour=form.cleaned_data["quota_reset_hour"],
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        if changed:
            messages.success(
                request,
                _("The round's daily limits now reset at %(at)s (%(zone)s).")
                % {"at": f"{round_.quota_reset_time:%H:%M}", "zone": round_.timezone},
            )
    return redirect("console:round", competition_slug, round_slug)


@login_required
def round_delete_page(request, competition_slug, round_slug):
    """*Delete the round*: what goes with it, or why it cannot go (GET); done on POST only,
    back to the competition's console page."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    refusal = round_delete_refusal(round_)
    if request.method == "POST" and not refusal:
        try:
            name = round_delete(user=request.user, round=round_)
        except Refused as refused:
            messages.error(request, refused.message)
            return redirect("console:round", competition_slug, round_slug)
        messages.success(request, _("Round “%(name)s” deleted.") % {"name": name})
        return redirect("console:competition", competition_slug)
    return render(
        request,
        "console/round_delete.html",
        {"competition": round_.competition, "round": round_, "refusal": refusal},
    )
