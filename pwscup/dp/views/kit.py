"""The DP round's downloads for its teams and organizers: the starter kit (ZIP, with the
toolkit wheel) and the sample estimate (``pwscup.dp.kit``)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404

from pwscup.accounts.access import kind_view
from pwscup.core.exports import csv_bytes_response
from pwscup.core.kits import kit_response, round_kit_name
from pwscup.dp import kit
from pwscup.dp.views.common import dp_round_or_404


def _allowed(access) -> None:
    """A team member or an organizer of the round (like the level pages), else 404."""
    if access.team is None and not access.is_organizer:
        raise Http404("Not in a team.")


@kind_view("dp")
@login_required
def kit_download(request, access):
    dp_round = dp_round_or_404(access)
    _allowed(access)
    files = kit.round_kit_files(dp_round=dp_round, team=access.team)
    return kit_response(files, round_kit_name(dp_round.round, kind="dp"))


@kind_view("dp")
@login_required
def sample_estimate(request, access):
    dp_round = dp_round_or_404(access)
    _allowed(access)
    return csv_bytes_response(
        kit.sample_estimate(dp_round=dp_round), kit.sample_estimate_name(dp_round=dp_round)
    )
