"""Who may see what on the sequential round's pages: a team's own data, a release (its team
and the organizers), a target of the attack phase (participants and organizers, once the
phase is open). Each answers 404 otherwise, so nothing tells a caller that the thing exists.
Shared by the pages, the uploads and the downloads."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from pwscup.sequential import selectors
from pwscup.sequential.models import Release, SeqTarget


def require_team(access):
    if access.team is None:
        raise Http404("Not in a team of this competition.")
    return access.team


def own_release(access, pk: int) -> Release:
    sequential = selectors.sequential_of(round=access.round)
    release = get_object_or_404(Release, pk=pk, sequential=sequential)
    if not access.is_organizer and (access.team is None or release.team_id != access.team.pk):
        raise Http404("No such release.")
    return release


def attack_target(access, team_slug: str) -> SeqTarget:
    sequential = selectors.sequential_of(round=access.round)
    if not (sequential.all_frozen and sequential.config.get("attack_phase")):
        raise Http404("No attack phase.")
    if access.team is None and not access.is_organizer:
        raise Http404("Not a participant.")
    return get_object_or_404(
        SeqTarget.objects.select_related("team", "sequential"),
        sequential=sequential,
        team__slug=team_slug,
    )
