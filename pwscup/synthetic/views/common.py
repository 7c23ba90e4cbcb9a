"""Who may see what on the synthetic round's pages: the team's own data and releases (its
team; a release also the organizers), a published target (participants and organizers,
once the releases are frozen; a team: the other teams' targets). Each answers 404
otherwise, so nothing tells a caller that the thing exists. Shared by the uploads and the
downloads; the checks of the caller alone (a team, a participant, a release's own team) are
every round page's (``pwscup.submissions.round_pages``), and who may have a target is the
API's one rule (``api.views.TARGETS``)."""

from django.shortcuts import get_object_or_404

from pwscup.submissions.round_pages import require_own
from pwscup.synthetic.api.views import TARGETS, synthetic_part
from pwscup.synthetic.models import SynRelease, SynTarget


def own_release(access, pk: int) -> SynRelease:
    """A release of the caller's team (an organizer: any release of the round)."""
    release = get_object_or_404(SynRelease, pk=pk, synthetic=synthetic_part(access))
    return require_own(access, release, missing="No such release.")


def published_target(access, team_slug: str) -> SynTarget:
    """A target a participant may download or attack: published (frozen), and another
    team's (an organizer: any), as the API serves it (``TARGETS.named``)."""
    return TARGETS.named(access, synthetic_part(access), team_slug)
