"""The console's page of voided uploads of a round whose kind declares voidable submission
types (``pwscup.submissions.voids``): the list (who, when, why; restore), and the form that
voids one upload or every upload sent before a time (of one type, optionally one team), with
a reason the teams are told. A round of a kind declaring none has no such page (404)."""

import datetime as dt

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import round_access
from pwscup.accounts.models import Team
from pwscup.competitions.selectors import console_round
from pwscup.core.errors import Refused
from pwscup.core.time_zones import zone_or_default
from pwscup.kinds import kind_of
from pwscup.submissions.services.voids import (
    VoidScope,
    organizer_check,
    upload_restore,
    uploads_void,
    void_team,
)
from pwscup.submissions.voids import voidable_types, voided


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


def _before(value: str, round_) -> dt.datetime | None:
    """The form's ``before`` (a ``datetime-local`` value, in the round's time zone; empty:
    none), refusing a value that is no time."""
    try:
        moment = parse_datetime(value or "")
    except ValueError:
        moment = None
    if value and moment is None:
        raise Refused(
            _("“%(value)s” is not a date and time (2026-12-01 18:00).") % {"value": value}
        )
    if moment is not None and timezone.is_naive(moment):
        moment = timezone.make_aware(moment, zone_or_default(round_.timezone))
    return moment


@login_required
def round_voids(request, competition_slug, round_slug):
    round_, access, types = _voidable(request, competition_slug, round_slug)
    if request.method == "POST":
        try:
            _void_posted(request, round_, access, types)
        except Refused as refusal:
            messages.error(request, refusal.message)
        return redirect("console:round_voids", competition_slug, round_slug)
    listed = []
    for declared in types.values():
        rows = voided(VoidScope(declared, access).uploads())
        for upload in rows.select_related("team", "voided_by"):
            listed.append((declared, upload))
    listed.sort(key=lambda pair: pair[1].voided_at, reverse=True)
    context = {
        "competition": access.competition,
        "round": round_,
        "types": types.values(),
        "teams": Team.objects.filter(competition=access.competition).order_by("name"),
        "voided": listed,
    }
    return render(request, "console/round_voids.html", context)


def _void_posted(request, round_, access, types) -> None:
    post = request.POST
    declared = types.get(post.get("type", ""))
    if declared is None:
        raise Refused(_("Choose the kind of upload to void."))
    upload = post.get("upload", "").strip()
    if upload and not upload.isdigit():
        raise Refused(_("An upload's id is a number, not %(value)s.") % {"value": upload})
    count = uploads_void(
        VoidScope(declared, access),
        user=request.user,
        reason=post.get("reason", ""),
        upload_pk=int(upload) if upload else None,
        before=None if upload else _before(post.get("before", ""), round_),
        team=void_team(access, post.get("team", "")),
    )
    messages.success(request, _("Uploads voided: %(count)d.") % {"count": count})


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
