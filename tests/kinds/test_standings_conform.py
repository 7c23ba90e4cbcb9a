"""Every kind's rankings reach the competition's standings through ``published_rankings``:
nothing before the publication (the standings are pending), the kind's own final ranking's
teams after it, a disqualified team left out as in the round."""

from decimal import Decimal

from pwscup.competitions.standings import EntryInput, standings_of, standings_update
from pwscup.console.services import console_team_disqualify
from pwscup.kinds import kind_of


def team_slugs(table) -> set[str]:
    return {row.team.slug for row in table.rows}


def test_the_standings_take_a_kinds_rankings_once_published(player, arena_of):
    arena = arena_of()
    kind = kind_of(arena.round)
    declared = kind.ranking_keys(arena.round)
    player.play_results(arena, "ab")
    assert kind.published_rankings(arena.round) == []
    if not declared:  # a kind without rankings (the toy) offers nothing to count
        return
    first = declared[0].key
    standings_update(
        user=arena.organizer,
        competition=arena.competition,
        rule="weighted_rank",
        entries=[EntryInput(arena.round, Decimal(1), (first,))],
    )
    assert standings_of(competition=arena.competition).pending
    player.close(arena)
    player.publish(arena)
    player.run_jobs()
    published = {ranking.key: ranking for ranking in kind.published_rankings(arena.round)}
    assert set(published) <= {ranking.key for ranking in declared}
    assert {row.team_id for row in published[first].rows} == {
        arena.teams["a"].pk,
        arena.teams["b"].pk,
    }
    table = standings_of(competition=arena.competition)
    assert not table.pending
    both = {arena.teams["a"].slug, arena.teams["b"].slug}
    assert team_slugs(table) == both
    ranks = {row.team.slug: (row.rank, row.cells[0].rank) for row in table.rows}
    by_kind = {row.team.slug: row.rank for row in published[first].rows}
    assert {slug: cell for slug, (_rank, cell) in ranks.items()} == by_kind
    console_team_disqualify(user=arena.organizer, team=arena.teams["b"], reason="Broke the rules.")
    assert team_slugs(standings_of(competition=arena.competition)) == {arena.teams["a"].slug}
