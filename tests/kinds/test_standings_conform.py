"""Every kind's rankings reach the competition's standings through ``published_rankings``:
nothing before the publication (the standings are pending), the kind's own final ranking's
teams after it, a disqualified team left out as in the round."""

from decimal import Decimal

from pwscup.competitions.standings import standings_of
from pwscup.competitions.standings_services import EntryInput, standings_update
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


def test_the_names_a_formula_may_use_need_no_teams_score(player, arena_of):
    """The console's formula help and the Rules tab read a kind's names alone
    (``score_names``), and whether it has an attack matrix alone (``has_attack_matrix``):
    the same answers as the scores (``named_scores``) and the matrix (``attack_cells``)
    give, before any upload and once the results are published. The names are the same
    then as before: an organizer sets a formula before the first upload."""
    arena = arena_of()
    kind = kind_of(arena.round)

    def agree(round_):
        assert kind.score_names(round_) == kind.named_scores(round_)["names"]
        has_matrix = kind.attack_cells(round_) is not None
        assert kind.has_attack_matrix(round_) == has_matrix
        return has_matrix

    agree(arena.round)
    before = kind.score_names(arena.round)
    player.play_results(arena, "ab")
    player.close(arena)
    player.publish(arena)
    player.run_jobs()
    agree(arena.round)
    assert kind.score_names(arena.round) == before
    if player.attack_matrix:  # a round playing the matrix (a sequential one: its attack phase)
        assert agree(player.matrix_arena(slug="names").round)
