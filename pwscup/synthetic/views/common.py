"""Who may see what on the synthetic round's pages: the team's own releases (its team; an
organizer too), answering 404 otherwise, so nothing tells a caller that the thing exists.
Shared by the uploads and the downloads; the checks of the caller alone (a team, a
participant, a release's own team) are every round page's
(``pwscup.submissions.round_pages``), and who may have a published target is the API's one
rule (``api.views.TARGETS``)."""

from django.shortcuts import get_object_or_404

from pwscup.submissions.round_pages import require_own
from pwscup.synthetic.api.views import synthetic_part
from pwscup.synthetic.models import SynRelease


def own_release(access, pk: int) -> SynRelease:
    """A release of the caller's team (an organizer: any release of the round)."""
    release = get_object_or_404(SynRelease, pk=pk, synthetic=synthetic_part(access))
    return require_own(access, release)
