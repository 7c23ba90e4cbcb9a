"""Who sees a leaderboard, the attack matrix and the final ranking: one rule for the HTML
pages and the REST API. A visitor gets 404 (nothing to see), a logged-in account 403 with
why."""

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _

from pwscup.accounts.access import RoundAccess, round_access
from pwscup.competitions.models import Phase
from pwscup.competitions.selectors import phase_of
from pwscup.pwscup2015 import KEY
from pwscup.pwscup2015.leaderboards import selectors


def leaderboard_access(request, competition_slug, round_slug) -> tuple[RoundAccess, Phase]:
    access = round_access(request, competition_slug, round_slug, kind=KEY)
    phase = phase_of(round=access.round, kind=Phase.Kind.ANONYMIZATION)
    if phase is None:
        raise Http404
    if not selectors.can_view_leaderboard(
        user=request.user, phase=phase, is_organizer=access.is_organizer
    ):
        if request.user.is_authenticated:
            raise PermissionDenied(_("This leaderboard is not public."))
        raise Http404
    return access, phase


def results_access(request, competition_slug, round_slug) -> RoundAccess:
    access = round_access(request, competition_slug, round_slug, kind=KEY)
    if not selectors.can_view_results(
        user=request.user, round=access.round, is_organizer=access.is_organizer
    ):
        if request.user.is_authenticated:
            raise PermissionDenied(_("The results of this round are not published yet."))
        raise Http404
    return access
