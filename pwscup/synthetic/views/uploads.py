"""The synthetic round's forms: a release upload, the choice of the final release, an
attack upload on another team's target. Each keeps the file (or the choice) through one
service and goes back to the Submit tab with a message saying what happens next or why
it was refused; a request that asks for JSON (``Accept: application/json``) gets the
answer as JSON, like the other kinds' upload views."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.submissions.messages import upload_received_message
from pwscup.synthetic import KEY, services
from pwscup.synthetic.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.synthetic.views.common import own_release, published_target, require_team, synthetic_of


def _wants_json(request) -> bool:
    return "application/json" in request.headers.get("Accept", "")


def _upload(request, access, form, keep, anchor: str):
    """Check the form, keep the upload through ``keep(file)``; answer JSON or go back to
    the Submit tab at ``anchor``."""
    back = redirect(tab_url(access.round, SUBMIT) + anchor)
    try:
        if not form.is_valid():
            raise Refused(_("Choose a file."))
        upload = keep(form.cleaned_data["file"])
    except Refused as refusal:
        if _wants_json(request):
            headers, retry = refusal.retry_details()
            return JsonResponse(
                {"error": refusal.message, **retry}, status=refusal.status, headers=headers
            )
        messages.error(request, refusal.message)
        return back
    notice = upload_received_message(upload)
    if _wants_json(request):
        return JsonResponse(
            {"id": upload.pk, "number": upload.number, "status": upload.status, "message": notice},
            status=202,
        )
    messages.info(request, notice)
    return back


@login_required
@kind_view(KEY)
@require_POST
def release_upload(request, access):
    synthetic = synthetic_of(access)
    team = require_team(access)
    return _upload(
        request,
        access,
        ReleaseUploadForm(request.POST, request.FILES),
        lambda file: services.release_upload(
            synthetic=synthetic, team=team, user=request.user, uploaded_file=file
        ),
        "#releases",
    )


@login_required
@kind_view(KEY)
@require_POST
def attack_upload(request, access, team_slug: str):
    team = require_team(access)
    target = published_target(access, team_slug)
    return _upload(
        request,
        access,
        AttackUploadForm(request.POST, request.FILES),
        lambda file: services.attack_upload(
            target=target, team=team, user=request.user, uploaded_file=file
        ),
        f"#attack-{target.team.slug}",
    )


@login_required
@kind_view(KEY)
@require_POST
def release_select(request, access, pk: int):
    """Make one of the team's scored releases its final one (the freeze publishes it)."""
    team = require_team(access)
    release = own_release(access, pk)
    if release.team_id != team.pk:
        raise Http404("No such release.")
    try:
        services.release_select(release=release)
    except Refused as refusal:
        if _wants_json(request):
            return JsonResponse({"error": refusal.message}, status=refusal.status)
        messages.error(request, refusal.message)
    else:
        if _wants_json(request):
            return JsonResponse({"id": release.pk, "selected": True})
        messages.success(
            request, _("Release #%(n)s is now your final release.") % {"n": release.number}
        )
    return redirect(tab_url(access.round, SUBMIT) + "#releases")
