"""Who may see what on the sequential round's pages: a team's own data, a release (its team
and the organizers), a target of the attack phase (participants and organizers, once the
phase is open). Each answers 404 otherwise, so nothing tells a caller that the thing exists.
Shared by the pages, the uploads, the downloads and the API; the checks of the caller alone (a team, a
participant, a release's own team) are every round page's (``pwscup.submissions.round_pages``)."""

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext

from pwscup.sequential import selectors
from pwscup.sequential.models import Release, SeqTarget
from pwscup.submissions.round_api import no_target
from pwscup.submissions.round_pages import require_own, require_participant, require_team

__all__ = ["attack_target", "own_release", "require_team"]


def own_release(access, pk: int) -> Release:
    sequential = selectors.sequential_of(round=access.round)
    release = get_object_or_404(Release, pk=pk, sequential=sequential)
    return require_own(access, release)


def attack_target(access, team_slug: str) -> SeqTarget:
    sequential = selectors.sequential_of(round=access.round)
    if not sequential.attack_phase_begun:
        raise Http404(gettext("The attack phase is not open."))
    require_participant(access)
    found = (
        SeqTarget.objects.select_related("team", "sequential")
        .filter(sequential=sequential, team__slug=team_slug)
        .first()
    )
    if found is None:
        others = SeqTarget.objects.filter(sequential=sequential).exclude(team=access.team)
        raise no_target(
            team_slug, others.order_by("team__name").values_list("team__slug", flat=True)
        )
    return found
