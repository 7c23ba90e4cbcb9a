"""The scorer round's forms: a release upload, the choice of the final release, an attack
upload (on a chosen target, or on every target at once, as the round says). Each keeps the
file (or the choice) through one service and goes back to the Submit tab with a message
saying what happens next or why it was refused; a request that asks for JSON
(``Accept: application/json``) gets the answer as JSON, like the other kinds' upload views."""

from django.utils.translation import gettext as _

from pwscup.core.errors import Refused
from pwscup.scorer import KEY, selectors, services
from pwscup.scorer.views.common import own_upload, scorer_part
from pwscup.scorer.views.forms import AttackUploadForm, ReleaseUploadForm
from pwscup.submissions.round_pages import (
    release_select_view,
    release_upload_view,
    team_form_view,
    upload_answer,
)

release_upload = release_upload_view(
    KEY,
    ReleaseUploadForm,
    lambda access, **upload: services.release_upload(scorer=scorer_part(access), **upload),
)


def _target(scorer, slug: str):
    """The frozen target named ``slug`` (``None`` for no slug); refused when there is none."""
    if not slug:
        return None
    target = selectors.round_targets(scorer=scorer).filter(team__slug=slug).first()
    if target is None:
        raise Refused(_("This target is not part of the round."), status=404)
    return target


@team_form_view(KEY)
def attack_upload(request, access, team):
    scorer = scorer_part(access)
    return upload_answer(
        request,
        access,
        AttackUploadForm,
        lambda data: services.attack_upload(
            scorer=scorer,
            team=team,
            user=request.user,
            uploaded_file=data["file"],
            target=_target(scorer, data.get("target") or ""),
        ),
        "#attacks",
    )


release_select = release_select_view(
    KEY,
    lambda access, pk: own_upload(access, "releases", pk),
    services.release_select,
)
