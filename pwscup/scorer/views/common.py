"""Who may see what on the scorer round's pages: a team's own uploads, their files and detailed
results (its team and the organizers), a frozen target's public files (the teams of the
competition and the organizers, once the round is frozen). Each answers 404 otherwise, so
nothing tells a caller that the thing exists. Shared by the uploads and the downloads; the
checks of the caller alone (a team, a participant, an upload's own team) are every round
page's (``pwscup.submissions.round_pages``)."""

from django.http import Http404
from django.shortcuts import get_object_or_404

from pwscup.scorer.api.common import scorer_part
from pwscup.scorer.models import Attack, Release, Target
from pwscup.submissions.round_pages import require_frozen, require_own

UPLOAD_MODELS = {"releases": Release, "attacks": Attack}


def own_upload(access, kind: str, pk: int) -> Release | Attack:
    """A release or an attack (``kind``: ``releases`` or ``attacks``) of the caller's team;
    an organizer: any of the round's."""
    model = UPLOAD_MODELS.get(kind)
    if model is None:
        raise Http404
    upload = get_object_or_404(
        model.objects.select_related("team", "program"), pk=pk, scorer=scorer_part(access)
    )
    return require_own(access, upload)


def published_target(access, team_slug: str) -> Target:
    """A frozen target whose public files the caller may download: a team of the
    competition (its own target included: it is what every other team sees) or an
    organizer, once the round is frozen."""
    scorer = scorer_part(access)
    require_frozen(access, scorer)
    return get_object_or_404(
        Target.objects.select_related("team", "release"), scorer=scorer, team__slug=team_slug
    )
