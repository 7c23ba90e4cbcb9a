"""Every kind's round pages cost a team a pinned number of SQL queries, whatever the number
of teams: a member of team A reads each tab (Overview, Data, Rules, Submit, Results) twice,
and the second reading (the shared parts then in the cache) must read exactly
``Player.page_queries[tab]`` queries, with 2 teams and again with 8 teams that have all
uploaded and been scored. A new query on a page, or one per team, fails here: the pin is
moved on purpose or the query goes. Counts are deterministic; timings are never asserted
(the rush's figures are in benchmarks/README.md)."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from pwscup.accounts.services import membership_add, team_create, user_create
from pwscup.kinds.registry import kind_of
from pwscup.kinds.tabs import tab_url

TABS = ("overview", "data", "rules", "submit", "results")
MORE = "cdefgh"


def counts(client, arena) -> dict[str, int]:
    found = {}
    for tab in TABS:
        url = tab_url(arena.round, tab)
        assert client.get(url).status_code == 200, url  # the caches filled
        with CaptureQueriesContext(connection) as captured:
            response = client.get(url)
        assert response.status_code == 200, url
        found[tab] = len(captured)
    return found


def test_a_teams_round_pages_read_a_pinned_number_of_queries_whatever_the_teams(
    player, arena_of, client
):
    small = arena_of()
    player.play_results(small)
    client.force_login(small.users["a"])
    few = counts(client, small)
    large = arena_of()
    for letter in MORE:
        team = team_create(
            competition=large.competition, name=f"More {letter.upper()}", slug=f"more-{letter}"
        )
        user = user_create(username=f"{large.round.slug}-more-{letter}", password="pw")
        membership_add(team=team, user=user)
        large.teams[letter], large.users[letter] = team, user
    kind_of(large.round).teams_changed(large.round)
    player.play_results(large, "ab" + MORE)
    client.force_login(large.users["a"])
    many = counts(client, large)
    assert few == many, (few, many)
    assert few == player.page_queries, f"{player.key}: {few}"
