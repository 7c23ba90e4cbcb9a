"""The round lookup of the 2015 game's endpoints: the pages' ``round_access``, confined to
rounds of this kind (a round of another kind answers 404 on them)."""

from django.http import Http404

from pwscup.accounts.access import RoundAccess, round_access
from pwscup.pwscup2015 import KEY


def require_game_round(access: RoundAccess) -> RoundAccess:
    if access.round.kind != KEY:
        raise Http404
    return access


def game_round_access(request, competition_slug: str, round_slug: str) -> RoundAccess:
    return round_access(request, competition_slug, round_slug, kind=KEY)
