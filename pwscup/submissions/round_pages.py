"""What the kinds' round pages share in their views: who the caller must be (a team, a
participant, the team that owns an upload), the live tabs (a tab listing an upload still
being checked or scored reloads itself when the team's live version moves,
``static/live.js``) and the answer of an upload form (JSON for a request that asks for it,
``Accept: application/json``, else back to the Submit tab with a message).

A kind's views keep their own reads and services; these only decide who may ask, and how
the page answers."""

from collections.abc import Callable

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.kinds.tabs import RESULTS, SUBMIT, render_tab, tab_url
from pwscup.submissions.messages import upload_received_message
from pwscup.submissions.models import Status
from pwscup.submissions.selectors import live_etag

# The tabs that list the team's uploads and follow them while a worker checks them.
LIVE_TABS = (SUBMIT, RESULTS)
PENDING = (Status.QUEUED, Status.RUNNING)

# --- who may ask ---------------------------------------------------------------------------


def require_team(access):
    """The caller's team; 404 for a caller in no team of the competition."""
    if access.team is None:
        raise Http404("Not in a team of this competition.")
    return access.team


def require_participant(access) -> None:
    """404 unless the caller is in a team of the competition or organizes it."""
    if access.team is None and not access.is_organizer:
        raise Http404("Not a participant.")


def require_own(access, upload, *, missing: str):
    """``upload`` if it is the caller's team's (an organizer: any); 404 (``missing``)
    otherwise, so nothing tells a caller that it exists."""
    if not access.is_organizer and (access.team is None or upload.team_id != access.team.pk):
        raise Http404(missing)
    return upload


# --- the live tabs -------------------------------------------------------------------------


def pending(uploads) -> bool:
    """Whether a worker still checks or scores one of ``uploads`` (the page then reloads
    itself)."""
    return any(upload.status in PENDING for upload in uploads)


def render_live_tab(
    request, access, tab: str, template: str, context: dict, *, reload=False, etag=""
):
    """``render_tab``; with ``reload`` (a worker checks one of the team's uploads) the page's
    script polls the team's live version (``etag``, read before the uploads) and reloads the
    page when it moves (``rounds/base.html``)."""
    if reload and etag:
        context["live_reload_etag"] = etag
    return render_tab(request, access, tab, template, context)


def live_round_page(request, access, tab: str, *, views: dict, state: Callable):
    """The tab ``tab`` of a kind's round page (the core checked access):
    ``views[tab](request, access, state())``, ``state()`` being the kind's read of the round.
    A live tab of a team's page (``LIVE_TABS``) also gets ``etag``: the team's live ETag."""
    live = tab in LIVE_TABS and access.team is not None
    # Read before the uploads: one that changes after it makes the next poll a 200.
    etag = live_etag(round_id=access.round.pk, team_id=access.team.pk) if live else ""
    if live:
        return views[tab](request, access, state(), etag=etag)
    return views[tab](request, access, state())


# --- the upload forms' answers ---------------------------------------------------------------


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def refused_answer(request, refusal: Refused, back):
    """A refusal as JSON (its status, and when to try again), or its message and ``back``."""
    if wants_json(request):
        headers, retry = refusal.retry_details()
        return JsonResponse(
            {"error": refusal.message, **retry}, status=refusal.status, headers=headers
        )
    messages.error(request, refusal.message)
    return back


def upload_answer(request, access, form, keep: Callable, anchor: str):
    """Check the form, keep the upload through ``keep(cleaned_data)``; answer JSON (202) or
    go back to the Submit tab at ``anchor`` with the notice of ``upload_received_message``
    (an error for an upload its kind refused as it was kept)."""
    back = redirect(tab_url(access.round, SUBMIT) + anchor)
    try:
        if not form.is_valid() or not form.cleaned_data.get("file"):
            raise Refused(_("Choose a file."))
        upload = keep(form.cleaned_data)
    except Refused as refusal:
        return refused_answer(request, refusal, back)
    notice = upload_received_message(upload)
    if wants_json(request):
        return JsonResponse(
            {"id": upload.pk, "number": upload.number, "status": upload.status, "message": notice},
            status=202,
        )
    if upload.status == upload.Status.FAILED:
        messages.error(request, notice)
    else:
        messages.info(request, notice)
    return back


def final_release_answer(request, access, release, select: Callable, *, answer: dict):
    """Make ``release`` the team's final one through ``select()``; answer ``answer`` as JSON
    (or the refusal), or go back to the Submit tab's releases with a message."""
    back = redirect(tab_url(access.round, SUBMIT) + "#releases")
    try:
        select()
    except Refused as refusal:
        return refused_answer(request, refusal, back)
    if wants_json(request):
        return JsonResponse(answer)
    messages.success(
        request, _("Release #%(n)s is now your final release.") % {"n": release.number}
    )
    return back
