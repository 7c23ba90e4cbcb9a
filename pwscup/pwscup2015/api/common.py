"""The round lookup of the 2015 game's endpoints: the pages' ``round_access``, confined to
rounds of this kind (a round of another kind answers 404 on them)."""

from pwscup.accounts.access import RoundAccess, round_access
from pwscup.pwscup2015 import KEY


def game_round_access(request, competition_slug: str, round_slug: str) -> RoundAccess:
    return round_access(request, competition_slug, round_slug, kind=KEY)
