"""The console's page of voided uploads of a round whose kind declares voidable submission
types (``pwscup.submissions.voids``): the form that voids one upload or every upload sent
before a time (of one type, optionally one team), with a reason the teams are told
(``VoidForm``; ``uploads_void`` writes); the round's counted uploads, newest first, each with
a *Void…* link that fills the form in; and the voided ones (who, when, why; restore). A round
of a kind declaring none has no such page (404)."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import round_access
from pwscup.accounts.models import Team
from pwscup.competitions.selectors import console_round
from pwscup.console.void_forms import UploadsFilterForm, VoidForm
from pwscup.core.errors import Refused
from pwscup.core.form_fields import digits_value, form_page
from pwscup.kinds import kind_of
from pwscup.submissions.services.voids import (
    VoidScope,
    organizer_check,
    upload_restore,
    uploads_void,
)
from pwscup.submissions.voids import (
    ListedUpload,
    listed_with,
    newest_counted,
    voidable_types,
    voided,
)

# The table of counted uploads lists the newest ones, 50 more per *Show more*, up to 1,000
# (a round may hold thousands: a team's filter, or a void by time, reaches the older ones).
UPLOADS_SHOWN = 50
UPLOADS_SHOWN_MAX = 1000


def _voidable(request, competition_slug: str, round_slug: str):
    """The round (404 unless the user organizes it), the caller's access and the kind's
    voidable types by key (404 when it declares none)."""
    round_ = console_round(
        user=request.user, competition_slug=competition_slug, round_slug=round_slug
    )
    access = round_access(request, competition_slug, round_slug)
    organizer_check(access)
    types = {declared.key: declared for declared in voidable_types(kind_of(round_))}
    if not types:
        raise Http404
    return round_, access, types


@login_required
def round_voids(request, competition_slug, round_slug):
    """The page: the void form (pre-filled by a *Void…* link's ``type`` and ``upload``; a
    refused post comes back with the values typed and the errors beside them), the round's
    counted uploads and its voided ones."""
    round_, access, types = _voidable(request, competition_slug, round_slug)
    teams = Team.objects.filter(competition=access.competition).order_by("name")
    form = VoidForm(
        request.POST or None,
        round=round_,
        types=types.values(),
        teams=teams,
        initial=VoidForm.initial_of(request.GET, types.values()),
    )
    return form_page(
        request,
        form,
        lambda data: uploads_void(
            VoidScope(types[data["type"]], access),
            user=request.user,
            reason=data["reason"],
            upload_pk=data["upload"],
            before=data["before"],
            team=data["team"],
        ),
        template="console/round_voids.html",
        context={
            "competition": access.competition,
            "round": round_,
            **_counted_table(request, access, types, teams),
            "voided": _voided(access, types),
        },
        back=reverse("console:round_voids", args=[competition_slug, round_slug]),
        done=lambda count: _("Uploads voided: %(count)d.") % {"count": count},
        unchanged=_("Nothing was voided: no upload that counts matches."),
        refusals=True,
    )


def _counted_table(request, access, types, teams) -> dict:
    """The table of the round's counted uploads: the newest ``shown`` (the address's,
    bounded), of the team the filter names, or every team's."""
    shown = digits_value(request.GET.get("shown", "")) or UPLOADS_SHOWN
    shown = min(max(shown, UPLOADS_SHOWN), UPLOADS_SHOWN_MAX)
    uploads_filter = UploadsFilterForm(request.GET, teams=teams)
    team = uploads_filter.chosen_team()
    rows, more = newest_counted(
        [(declared, VoidScope(declared, access).uploads()) for declared in types.values()],
        team=team,
        limit=shown,
    )
    kept = {"team": team.slug} if team is not None else {}
    return {
        "counted": [ListedUpload.of(declared, upload) for declared, upload in rows],
        # What a Void… link keeps of the table's address (the filter, how many are listed).
        "table_query": urlencode({**kept, "shown": shown} if shown > UPLOADS_SHOWN else kept),
        "uploads_filter": uploads_filter,
        "filter_team": team,
        "more": more,
        "shown_next": shown + UPLOADS_SHOWN if more and shown < UPLOADS_SHOWN_MAX else None,
    }


def _voided(access, types) -> list:
    """The voided uploads, the newest void first (at most ``UPLOADS_SHOWN_MAX`` of a type)."""
    listed = []
    for declared in types.values():
        rows = voided(VoidScope(declared, access).uploads())
        rows = rows.select_related(*listed_with(declared), "voided_by")
        for upload in rows[:UPLOADS_SHOWN_MAX]:
            listed.append(ListedUpload.of(declared, upload))
    listed.sort(key=lambda row: row.upload.voided_at, reverse=True)
    return listed


@login_required
@require_POST
def round_void_restore(request, competition_slug, round_slug, type_key, pk):
    _round, access, types = _voidable(request, competition_slug, round_slug)
    declared = types.get(type_key)
    if declared is None:
        raise Http404
    try:
        upload_restore(VoidScope(declared, access), upload_pk=pk, user=request.user)
    except Refused as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("The upload counts again."))
    return redirect("console:round_voids", competition_slug, round_slug)
