"""Downloading a round's starter kit (ZIP)."""

from django.contrib.auth.decorators import login_required
from django.http import Http404

from pwscup.accounts.access import round_access
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of, phase_state
from pwscup.core.kits import kit_response, round_kit_name
from pwscup.pwscup2015.kit import round_kit_files
from pwscup.pwscup2015.selectors import team_dataset


@login_required
def kit_download(request, competition_slug, round_slug):
    """The kit of the reader's team (its data as the data download gives it), or the
    organizer's (the round's original and every target)."""
    access = round_access(request, competition_slug, round_slug)
    round_, team = access.round, access.team
    if team is None and not access.is_organizer:
        raise Http404
    if team is not None and not access.is_organizer:
        phase = phase_of(round=round_, kind=Phase.Kind.ANONYMIZATION)
        if phase is None or phase_state(phase=phase) == "upcoming":
            raise Http404
        if round_.pwscup2015.is_per_team and team_dataset(round=round_, team=team) is None:
            raise Http404
    files = round_kit_files(round=round_, team=team, is_organizer=access.is_organizer)
    return kit_response(files, round_kit_name(round_))
