"""The sequential round's upload forms: a release of an open step, and guesses on another
team's target in the attack phase. Each keeps the file through one service (a worker checks
or scores it) and goes back to the Submit tab (where the upload is listed, and the tab
reloads itself until it is checked) with a message saying what happens next, or why the
upload was refused."""

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.kinds.tabs import SUBMIT, tab_url
from pwscup.sequential import KEY, selectors, services
from pwscup.sequential.forms import GuessUploadForm, ReleaseUploadForm
from pwscup.sequential.views.common import attack_target
from pwscup.submissions.round_pages import team_form_view


def _submit_url(access) -> str:
    return tab_url(access.round, SUBMIT)


@team_form_view(KEY)
def release_upload(request, access, team):
    sequential = selectors.sequential_of(round=access.round)
    # Every step is a valid choice here: the service refuses a closed or frozen one, with a
    # message saying why (and when it closed).
    form = ReleaseUploadForm(request.POST, request.FILES, steps=range(1, sequential.n_releases + 1))
    if not form.is_valid():
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
        return redirect(_submit_url(access) + "#upload")
    try:
        release = services.release_upload(
            sequential=sequential,
            team=team,
            user=request.user,
            step=form.cleaned_data["step"],
            uploaded_file=form.cleaned_data["file"],
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(_submit_url(access) + "#upload")
    messages.info(
        request,
        _("Release %(j)s (#%(n)s) is received: a worker checks it; this page updates by itself.")
        % {"j": release.step, "n": release.number},
    )
    return redirect(_submit_url(access) + "#uploads")


@team_form_view(KEY)
def attack_upload(request, access, team, team_slug: str):
    target = attack_target(access, team_slug)
    form = GuessUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        messages.error(request, _("Choose a file."))
        return redirect(_submit_url(access) + "#attack")
    try:
        attack = services.attack_upload(
            target=target, team=team, user=request.user, uploaded_file=form.cleaned_data["file"]
        )
    except Refused as refusal:
        messages.error(request, refusal.message)
        return redirect(_submit_url(access) + "#attack")
    messages.info(
        request,
        _(
            "Your guesses on %(team)s (#%(n)s) are received: a worker scores them; the "
            "accuracy appears below."
        )
        % {"team": target.team.name, "n": attack.number},
    )
    return redirect(_submit_url(access) + "#attack")
