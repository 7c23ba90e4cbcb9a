"""The files of a synthetic round a participant downloads from its pages: the team's own
members table ``teamX_train.csv`` (its draw's members only: never the holdout, another
team's rows or a label of membership), its starter kit, its own releases as uploaded, and
after the freeze each other team's published release ``teamY_synthetic.csv``. A target's
challenge set and the auxiliary table are the declared endpoints' (``api/views.py``), at
the same addresses among the pages. Visitors get no data; a team's own release is its team's
(an organizer: any), a 404 otherwise, so nothing tells a caller that it exists. The checks of
the caller alone are every round page's (``pwscup.submissions.round_pages``), and who may
have a published target is the API's one rule (``api.views.TARGETS``)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect

from pwscup.accounts.access import kind_view
from pwscup.core.errors import Refused
from pwscup.core.files import private_file_response
from pwscup.core.kits import kit_response
from pwscup.kinds.tabs import DATA, tab_url
from pwscup.submissions.round_pages import require_own, require_team
from pwscup.synthetic import KEY, kit, services
from pwscup.synthetic.api import files
from pwscup.synthetic.api.views import TARGETS, members, synthetic_part
from pwscup.synthetic.models import SynRelease


@kind_view(KEY)
def train_download(request, access):
    """``teamX_train.csv``: the members ``T_X`` of the caller's own team, the API's answer
    (``syn/members.csv``: drawn now if the team has no draw yet). An organizer outside the
    teams has none: the members of a team would tell its challenge set's labels."""
    try:
        return members(request, access, synthetic_part(access))
    except Refused as refusal:
        return _refused(request, access, refusal)


@kind_view(KEY)
def kit_download(request, access):
    """The team's starter kit (``pwscup.synthetic.kit``): its members table, the sample
    release, ``population.json`` and ``config.json``, a README of the commands, the toolkit
    wheel; after the freeze the auxiliary table too."""
    synthetic = synthetic_part(access)
    team = require_team(access)
    try:
        services.team_draw(synthetic=synthetic, team=team)
    except Refused as refusal:
        return _refused(request, access, refusal)
    return kit_response(
        kit.kit_files(synthetic=synthetic, team=team),
        kit.kit_filename(synthetic=synthetic, team=team),
    )


def _refused(request, access, refusal: Refused):
    """A download refused (the team's pack has no population yet): back to the Data tab
    with the reason."""
    messages.error(request, refusal.message)
    return redirect(tab_url(access.round, DATA))


@kind_view(KEY)
def target_release(request, access, team_slug: str):
    """``teamY_synthetic.csv``: another team's frozen release, as uploaded, to whom the API
    serves it (``TARGETS.named``: published, and another team's; an organizer: any)."""
    target = TARGETS.named(access, synthetic_part(access), team_slug)
    return private_file_response(target.release.file, files.release_name(target.team))


def own_release(access, pk: int) -> SynRelease:
    """A release of the caller's team (an organizer: any release of the round)."""
    release = get_object_or_404(SynRelease, pk=pk, synthetic=synthetic_part(access))
    return require_own(access, release)


@kind_view(KEY)
def release_file(request, access, pk: int):
    """One of the team's releases as uploaded."""
    release = own_release(access, pk)
    return private_file_response(
        release.file, f"{release.team.slug}_synthetic_{release.number}.csv"
    )
