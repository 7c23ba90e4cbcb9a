"""The synthetic round's forms: a release upload, the choice of the final release, an
attack upload on another team's target. Each keeps the file (or the choice) through one
service and goes back to the Submit tab with a message saying what happens next or why
it was refused; a request that asks for JSON (``Accept: application/json``) gets the
answer as JSON, like the other kinds' upload views."""

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.views.decorators.http import require_POST

from pwscup.accounts.access import kind_view
from pwscup.submissions.round_pages import final_release_answer, upload_answer
from pwscup.synthetic import KEY, services
from pwscup.synthetic.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.synthetic.views.common import own_release, published_target, require_team, synthetic_of


@login_required
@kind_view(KEY)
@require_POST
def release_upload(request, access):
    synthetic = synthetic_of(access)
    team = require_team(access)
    return upload_answer(
        request,
        access,
        ReleaseUploadForm(request.POST, request.FILES),
        lambda data: services.release_upload(
            synthetic=synthetic, team=team, user=request.user, uploaded_file=data["file"]
        ),
        "#releases",
    )


@login_required
@kind_view(KEY)
@require_POST
def attack_upload(request, access, team_slug: str):
    team = require_team(access)
    target = published_target(access, team_slug)
    return upload_answer(
        request,
        access,
        AttackUploadForm(request.POST, request.FILES),
        lambda data: services.attack_upload(
            target=target, team=team, user=request.user, uploaded_file=data["file"]
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
    return final_release_answer(
        request,
        access,
        release,
        lambda: services.release_select(release=release),
        answer={"id": release.pk, "selected": True},
    )
