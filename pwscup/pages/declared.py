"""The round page of a kind that draws no tab of its own (its ``round_page`` answers ``None``:
its views module has none), read from its declarations:

* on the Submit tab, for each declared submission type (``RoundKind.submission_types``)
  listed for the team, its upload form (the file and the declared fields, sent to
  ``<path>/send/``, which keeps the upload as the API's ``POST <path>/`` does:
  ``_send_view``) and the team's uploads of it, newest first, as the API reads them;
* on the Results tab, the kind's standings (``api_leaderboard``): the tables
  ``pwscup leaderboard`` prints, under the same access rule, each also as a CSV
  (``standings_csv``, served for every kind);
* the other tabs, the core's frame (the schedule, the data choice, the totals).
"""

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect
from django.urls import path, reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from pwscup.accounts.access import round_access
from pwscup.competitions.totals import round_standings
from pwscup.core.errors import Refused
from pwscup.core.exports import csv_response
from pwscup.core.form_fields import digits_value
from pwscup.kinds.tabs import RESULTS, SUBMIT, render_tab, tab_url
from pwscup.submissions.messages import upload_received_message
from pwscup.submissions.round_pages import (
    refused_answer,
    refused_page,
    team_form_view,
    upload_received_json,
    wants_json,
)
from pwscup.submissions.submission_types import listed_types, upload_serializer


def send_url_name(kind, declared) -> str:
    """The URL name of the Submit tab's form target of ``declared`` (``<url_name>-send`` in
    the kind's namespace)."""
    name = f"{declared.url_name}-send"
    return f"{kind.namespace}:{name}" if kind.namespace else name


def _inputs(declared, part, access) -> list[dict]:
    """The form's inputs besides the file: the upload serializer's fields (the API's), each
    with the values it takes now where the type lists them (``fields``: a release's open
    steps), a number input for an integer field, else a text input."""
    listed = {field["name"]: field for field in declared.fields(part, access)}
    inputs = []
    for name, field in upload_serializer(declared)().fields.items():
        if name == "file":
            continue
        described = listed.get(name, {})
        inputs.append(
            {
                "name": name,
                "label": described.get("label") or field.label or name,
                "required": field.required,
                "choices": described.get("choices"),
                "type": "number" if isinstance(field, serializers.IntegerField) else "text",
            }
        )
    return inputs


def declared_sections(kind, access) -> list[dict]:
    """Per declared type listed for the caller's team: the type, whether it takes an upload
    now, its form's inputs, its form's target and the team's uploads of it
    (each ``{"upload", "answer"}``); none for a caller outside the round's teams."""
    sections = []
    for declared, part in listed_types(kind.submission_types(), access):
        context = declared.context(part, access)
        sections.append(
            {
                "type": declared,
                "open": declared.is_open(part, access),
                "inputs": _inputs(declared, part, access),
                "send": reverse(
                    send_url_name(kind, declared),
                    args=[access.competition.slug, access.round.slug],
                ),
                "uploads": [
                    {"upload": u, "answer": declared.answer(u, part, access, context)}
                    for u in declared.uploads(part, access)
                ],
            }
        )
    return sections


def declared_standings(kind, request, access) -> dict:
    """The kind's standings for the caller (``api_leaderboard``), or, while the caller may
    not see them, no table and the reason."""
    try:
        return kind.api_leaderboard(request, access)
    except Refused as refusal:
        return {"note": refusal.message, "tables": []}
    except (Http404, PermissionDenied):
        return {"note": "", "tables": []}


def declared_round_page(kind, request, access, tab: str):
    """One tab of a round of ``kind``, drawn from its declarations."""
    context = {}
    if tab == SUBMIT:
        context["sections"] = declared_sections(kind, access)
    elif tab == RESULTS:
        context["standings"] = declared_standings(kind, request, access)
    return render_tab(request, access, tab, "rounds/declared.html", context)


def _serializer_error(form) -> str:
    """The upload form's first refusal: "Choose a file." when no file came, the file's own
    refusal when one came ("The submitted file is empty."), else named by its field ("step:
    A valid integer is required.")."""
    for name, errors in form.errors.items():
        if name == "file" and any(e.code == "required" for e in errors):
            return str(_("Choose a file."))
        return str(errors[0]) if name == "file" else f"{name}: {errors[0]}"
    return ""


ORGANIZER_REFUSED = gettext_lazy(
    "Only a team member can upload; organizers see the uploads on the Submit tab."
)
# The refusal page's title: its status is a 403 or a 404, which "Not allowed" does not fit.
ORGANIZER_REFUSED_TITLE = gettext_lazy("Only a team member can upload")


def _organizer_answer(declared):
    """The answer of ``declared``'s browser target to an organizer outside the round's teams
    (who reached it from a bookmarked page, say): the status the API's ``POST <path>/``
    gives them (``declared.uploader``'s refusal: 403, or the 404 of anyone outside the
    teams), with a message saying where their view of the uploads is and a link back to
    it (the tab the form was on)."""

    def answer(request, access):
        part = declared.part(access)
        try:
            declared.uploader(part, access)
            status = 403  # no type lets a caller outside the teams upload; refused all the same
        except Refused as refusal:
            status = refusal.status
        except Http404:
            status = 404
        back = (tab_url(access.round, SUBMIT), _("Back to the Submit tab"))
        refusal = Refused(str(ORGANIZER_REFUSED), status=status)
        return refused_page(request, refusal, back, title=ORGANIZER_REFUSED_TITLE)

    return answer


def _send_view(kind, declared):
    """The Submit tab's form target of ``declared``, for a member of a team of the round
    (``team_form_view``): the upload kept through the declared type's serializer and
    service, as the API's ``POST <path>/`` keeps it (the same refusals: window, limits,
    size), then back to the tab with the answer's message (JSON, 202, to a request asking
    for JSON, as every kind's upload form answers). An organizer outside the teams is told
    why (``_organizer_answer``)."""

    @team_form_view(kind.key, organizers=_organizer_answer(declared))
    def send(request, access, team):
        submit = tab_url(access.round, SUBMIT)
        back = redirect(submit + declared.page_anchor(request.POST, refused=True))
        part = declared.part(access)
        form = upload_serializer(declared)(data={**request.POST.dict(), **request.FILES.dict()})
        try:
            declared.uploader(part, access)
            if not form.is_valid():
                raise Refused(_serializer_error(form))
            data = dict(form.validated_data)
            uploaded_file = data.pop("file")
            upload = declared.upload(
                part, access, user=request.user, uploaded_file=uploaded_file, data=data
            )
        except Refused as refusal:
            return refused_answer(request, refusal, back)
        except Http404 as missing:  # a target the team may not attack: the API's 404, said
            return refused_answer(request, Refused(str(missing), status=404), back)
        # An upload its kind refused as it was kept (FAILED at once) is told as an error,
        # with its reason (``upload_received_message``).
        failed = upload.status == upload.Status.FAILED
        notice = (upload_received_message if failed else declared.received_message)(upload)
        if wants_json(request):
            return upload_received_json(upload, notice)
        (messages.error if failed else messages.info)(request, notice)
        return redirect(submit + declared.page_anchor(request.POST, refused=False))

    return send


def send_pages(kind) -> list:
    """The form targets of the kind's declared types, at ``<path>/send/``."""
    return [
        path(f"{declared.path}/send/", _send_view(kind, declared), name=f"{declared.url_name}-send")
        for declared in kind.submission_types()
        if declared.has_create
    ]


def standings_csv(request, competition_slug, round_slug):
    """``c/<comp>/<round>/standings.csv?table=<n>``: table ``n`` (from 1) of the round's
    standings (``round_standings``: the API's tables, in its order) as a spreadsheet-safe
    CSV, under the API's access rule: 404 while the reader may not see them (a refusal, or a
    private leaderboard's PermissionDenied, as ``declared_standings`` reads them)."""
    access = round_access(request, competition_slug, round_slug)
    try:
        tables = round_standings(request, access)["tables"]
    except Refused as refusal:
        raise Http404(refusal.message) from None
    except PermissionDenied as denied:
        raise Http404(str(denied)) from None
    number = digits_value(request.GET.get("table", "1"))
    if number is None or not 1 <= number <= len(tables):
        raise Http404(_("No such table."))
    table = tables[number - 1]
    return csv_response(f"{access.round.slug}-{number}.csv", table["columns"], table["rows"])
