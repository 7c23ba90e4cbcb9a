"""What the kinds' round pages share in their views: who the caller must be (a team, a
participant, the team that owns an upload, a participant once the releases are frozen), the
five tabs a kind declares (``RoundTabs``: a tab listing an upload still being checked or
scored reloads itself when the team's live version moves, ``static/live.js``) and the forms
(``team_form_view``; the answer of an upload form: JSON for a request that asks for it,
``Accept: application/json``, else back to the Submit tab with a message).

A kind's views keep their own reads and services; these only decide who may ask, and how
the page answers."""

import contextlib
import functools
from collections import defaultdict
from collections.abc import Callable

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.core.toolkit import install_argument, wheel_filename
from pwscup.kinds.registry import kind_of
from pwscup.kinds.tabs import DATA, RESULTS, SUBMIT, UploadGates, render_tab, tab_url
from pwscup.submissions.models import PENDING, Status
from pwscup.submissions.round_api import require_participant, require_team
from pwscup.submissions.selectors import live_etag

# The tabs that list the team's uploads and follow them while a worker checks them.
LIVE_TABS = (SUBMIT, RESULTS)

# --- who may ask ---------------------------------------------------------------------------


# ``require_team`` and ``require_participant`` are the API's (``round_api``): one rule, one
# translated 404 message, for the pages and the API.


def require_frozen(access, row) -> None:
    """404 unless the caller is a participant (``require_participant``) and the releases of
    the kind's row of the round (``row.frozen_at``) are frozen: what a two-sided round
    publishes at the freeze is for its participants from then on."""
    require_participant(access)
    if row.frozen_at is None:
        raise Http404("Not frozen yet.")


def require_own(access, upload):
    """``upload`` if it is the caller's team's (an organizer: any); otherwise the 404 of an
    upload that does not exist (the API's *Not found.*, with no word of its own), so nothing
    tells a caller that it exists."""
    if not access.is_organizer and (access.team is None or upload.team_id != access.team.pk):
        raise Http404
    return upload


@contextlib.contextmanager
def refused_as_404():
    """A refusal inside (``Refused``: the team has no such data yet) as a page not found,
    with the refusal's message: a download nobody may have now."""
    try:
        yield
    except Refused as refusal:
        raise Http404(refusal.message) from None


def results_tab_url(round_) -> str:
    """The results of a round whose Results tab shows them all (``views_module.results_url``
    of a kind with no results page of its own)."""
    return tab_url(round_, RESULTS)


# --- the live tabs -------------------------------------------------------------------------


def pending(uploads) -> bool:
    """Whether a worker still checks or scores one of ``uploads`` (the page then reloads
    itself)."""
    return any(upload.status in PENDING for upload in uploads)


def team_live_etag(access) -> str:
    """The caller's team's live version (``""`` without a team), read before its uploads: one
    that changes after it makes the next poll a 200."""
    if access.team is None:
        return ""
    return live_etag(round_id=access.round.pk, team_id=access.team.pk)


def render_live_tab(request, access, tab: str, template: str, context: dict, uploads, *, etag):
    """``render_tab``, following the caller's team's ``uploads``: while a worker checks or
    scores one of them the page polls the team's live version ``etag`` (``team_live_etag``)
    and reloads itself when it moves. An organizer's look at another team's upload does not
    follow it (the poll is the reader's own team's)."""
    own = [upload for upload in uploads if upload.team_id == getattr(access.team, "pk", None)]
    if etag and pending(own):
        context = {**context, "live_reload_etag": etag}
    return render_tab(request, access, tab, template, context)


def first_finished(uploads):
    """The first of ``uploads`` a worker finished (checked or scored; ``None``: none): a
    team's latest valid upload when they are listed newest first."""
    return next((upload for upload in uploads if upload.status == Status.FINISHED), None)


def attacks_by_target(targets, attacks, *, team, uses: dict) -> list[dict]:
    """An attack phase's targets as the Submit tab lists them: each of ``targets`` with
    ``own`` (the caller's ``team``'s own target), the team's ``attacks`` on it and ``used``:
    how many of those count against the phase's per-target limit (``uses``, by target id:
    ``target_uses``'s, empty when nothing is counted)."""
    on_target = defaultdict(list)
    for attack in attacks:
        on_target[attack.target_id].append(attack)
    return [
        {
            "target": target,
            "own": team is not None and target.team_id == team.pk,
            "attacks": on_target.get(target.pk, []),
            "used": uses.get(target.pk, 0),
        }
        for target in targets
    ]


def upload_gates(uploads, *, label: Callable, checks: Callable) -> list[UploadGates]:
    """Where each of the team's ``uploads`` a worker finished stands against the round's
    gates, for the Submit and Results tabs (``rounds/_gates.html``): ``label(upload)`` names
    it, ``checks(upload)`` gives its ``(gate's name, passed)`` pairs in the rules' order."""
    return [
        UploadGates(label=label(upload), checks=tuple(checks(upload)))
        for upload in uploads
        if upload.status == Status.FINISHED
    ]


class RoundTabs:
    """A kind's round page as the five tabs of ``pwscup.kinds.tabs``: the kind declares its
    templates (``templates/<templates>/<tab>.html``), its read of the round (``state``) and
    what each tab shows; the core serves the page.

    Each tab is a method ``(access, state)`` returning the template's context. The overview
    and the rules are the same on every kind: the flow picture, "What to do now" and the
    schedule (``flow``, ``next_steps``, ``schedule``); the site's upload limits next to the
    kind's own rules (``rules_context``). The live tabs (``LIVE_TABS``) also return the
    uploads they list: while a worker checks one of them, a team's page polls the team's
    live version (read before the uploads) and reloads itself when it moves
    (``rounds/base.html``, ``static/live.js``)."""

    templates = ""
    # The toolkit's extra the kind's code needs (``pwscup.core.toolkit.EXTRAS``; ``None``: none).
    toolkit_extra: str | None = None

    def state(self, access):
        raise NotImplementedError

    def flow(self, *, state, team) -> list:
        raise NotImplementedError

    def next_steps(self, *, state, team) -> list:
        raise NotImplementedError

    def schedule(self, access, state) -> list:
        return kind_of(access.round).schedule_lines(access.round)

    def overview(self, access, state) -> dict:
        return {
            "state": state,
            "flow": self.flow(state=state, team=access.team),
            "next_steps": self.next_steps(state=state, team=access.team),
            "schedule": self.schedule(access, state),
        }

    def rules_context(self, state) -> dict:
        return {}

    def rules(self, access, state) -> dict:
        return {
            "state": state,
            "max_upload_mb": settings.PWSCUP_MAX_UPLOAD_BYTES / 2**20,
            "max_failed": settings.PWSCUP_MAX_FAILED_UPLOADS_PER_DAY,
            **self.rules_context(state),
        }

    def page(self, request, access, tab: str):
        """The tab ``tab`` of the round's page (the core checked access), its context the
        tab's with the round's ``state`` and, on the Data tab, the toolkit's wheel and its
        ``pip install`` argument (with the kind's ``toolkit_extra``)."""
        template = f"{self.templates}/{tab}.html"
        etag = team_live_etag(access) if tab in LIVE_TABS else ""
        state = self.state(access)
        if tab == DATA:
            served = {"wheel": wheel_filename(), "install": install_argument(self.toolkit_extra)}
        else:
            served = {}
        if tab not in LIVE_TABS:
            context = {"state": state, **served, **getattr(self, tab)(access, state)}
            return render_tab(request, access, tab, template, context)
        context, uploads = getattr(self, tab)(access, state)
        return render_live_tab(
            request, access, tab, template, {"state": state, **context}, uploads, etag=etag
        )


# --- the upload forms' answers ---------------------------------------------------------------


def wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def refused_json(refusal: Refused) -> JsonResponse:
    """A refusal as JSON: its message, its status, and when to try again."""
    headers, retry = refusal.retry_details()
    return JsonResponse({"error": refusal.message, **retry}, status=refusal.status, headers=headers)


def refused_page(request, refusal: Refused, back: tuple | None = None, title=None):
    """A refusal as JSON (``refused_json``), or the site's refusal page (``403.html``, its
    message) with the refusal's status; ``back``: ``(url, label)`` of a link back to where
    the reader came from, shown above the link to the competitions; ``title``: the page's
    title in place of "Not allowed" (one that fits a 404 too)."""
    if wants_json(request):
        return refused_json(refusal)
    context = {"exception": refusal.message, "refusal_title": title}
    if back is not None:
        context["back_url"], context["back_label"] = back
    return render(request, "403.html", context, status=refusal.status)


def refused_answer(request, refusal: Refused, back):
    """A refusal as JSON (``refused_json``), or its message and ``back``."""
    if wants_json(request):
        return refused_json(refusal)
    messages.error(request, refusal.message)
    return back


def team_form_view(key: str, *, organizers: Callable | None = None):
    """Decorate the view of a form on a round page of kind ``key``: a POST by a signed-in
    member of a team of the competition (404 for anyone else, as ``kind_view`` and
    ``require_team`` say); the view is ``view(request, access, team, **other_url_kwargs)``.
    With ``organizers``, an organizer of the round outside its teams gets
    ``organizers(request, access)`` instead of the 404."""

    def decorate(view):
        @login_required
        @kind_view(key)
        @require_POST
        @functools.wraps(view)
        def checked(request, access, *args, **kwargs):
            if organizers is not None and access.team is None and access.is_organizer:
                return organizers(request, access)
            return view(request, access, require_team(access), *args, **kwargs)

        return checked

    return decorate


def upload_received_json(upload, notice: str) -> JsonResponse:
    """The JSON answer (202) of a page's upload form to a request that asks for JSON: the
    upload kept, its state and the notice of ``upload_received_message``."""
    return JsonResponse(
        {"id": upload.pk, "number": upload.number, "status": upload.status, "message": notice},
        status=202,
    )


def no_file_chosen(form) -> bool:
    """Whether ``form``'s file field is refused for want of a file (none sent, or a form
    sent without its files), rather than for the file sent."""
    return form.has_error("file", "required") or form.has_error("file", "missing")


def release_select_view(
    key: str, own: Callable, select: Callable, *, anchor: str = "#releases", done=None
):
    """The view of a two-sided kind's choice of its final release: ``own(access, pk)`` the
    release the reader may see (404 otherwise; an organizer in a team may see every team's,
    but chooses only for its own), ``select(release=...)`` the kind's service. The answer is
    JSON (``id``, ``number``, ``selected``, or the refusal), or the Submit tab's releases
    with a message. A kind's other choice of one upload (the attack that counts) gives its
    Submit tab's ``anchor`` and its message, ``done(upload)``."""

    @team_form_view(key)
    def release_select(request, access, team, pk: int):
        release = own(access, pk)
        if release.team_id != team.pk:
            raise Http404
        back = redirect(tab_url(access.round, SUBMIT) + anchor)
        try:
            select(release=release)
        except Refused as refusal:
            return refused_answer(request, refusal, back)
        if wants_json(request):
            return JsonResponse({"id": release.pk, "number": release.number, "selected": True})
        text = done(release) if done is not None else None
        messages.success(
            request, text or _("Release #%(n)s is now your final release.") % {"n": release.number}
        )
        return back

    return release_select
