"""Disqualification is one rule in every kind with an attack matrix (docs/organizers.md,
"Disqualifying a team"; the rule is ``pwscup.accounts.selectors.DisqualificationRule``): a
disqualified team gets no rank, but its attacks still count against the targets they hit
and its target stays in the matrix, marked. So disqualifying the strongest attacker on a
target changes no other team's safety, and no other rank but by closing up over the
disqualified team; reinstating it gives everything back.

Run once per kind whose player plays an attack matrix (``Player.attack_matrix``)."""

import pytest

from pwscup.console.services import console_team_disqualify, console_team_reinstate


def closed_up(ranks: dict, gone: str) -> dict:
    """``ranks`` without team ``gone``, the others closing up over it: a shared rank
    (1, 2, 2, 4) counts the teams strictly ahead, so a team ranked behind ``gone`` moves up
    one place and no other moves."""
    out = {letter: rank for letter, rank in ranks.items() if letter != gone}
    if ranks.get(gone) is None:
        return out
    return {
        letter: rank - 1 if rank is not None and rank > ranks[gone] else rank
        for letter, rank in out.items()
    }


def test_a_disqualified_attacker_keeps_its_attacks_and_target_and_loses_its_ranks(player):
    if not player.attack_matrix:
        pytest.skip(f"{player.key} has no attack matrix")
    arena = player.matrix_arena(slug="dqm")
    attacker = arena.teams["a"]
    before = player.matrix_view(arena)
    # The guard: A's attack decides B's safety, so leaving it out would change it.
    assert before.strongest["b"] == "a", before
    assert set(before.targets) == {"a", "b", "c"} and not any(before.targets.values())
    assert "a" in before.target_ranks and "a" in before.attack_ranks and "a" in before.safety

    console_team_disqualify(user=arena.organizer, team=attacker, reason="Shared answers.")
    after = player.matrix_view(arena)
    # Every attack still counts: no other team's safety moves, nor who is ahead on a target.
    assert after.safety == {k: v for k, v in before.safety.items() if k != "a"}
    assert after.strongest == before.strongest
    # A has no rank; the others keep theirs, closing up over A.
    assert "a" not in after.target_ranks and "a" not in after.attack_ranks
    assert after.target_ranks == closed_up(before.target_ranks, "a")
    assert after.attack_ranks == closed_up(before.attack_ranks, "a")
    # A's target is still in the matrix, marked; on the page too.
    assert after.targets == {"a": True, "b": False, "c": False}
    page = player.matrix_page(arena)
    assert f'data-testid="matrix-col-{attacker.slug}"' in page
    assert f'data-testid="disqualified-{attacker.slug}"' in page

    console_team_reinstate(user=arena.organizer, team=attacker)
    assert player.matrix_view(arena) == before
    assert f'data-testid="disqualified-{attacker.slug}"' not in player.matrix_page(arena)


def test_the_top_n_attack_score_reads_the_kinds_own_matrix(player):
    """The core's attack score against the top N releases (pwscup/competitions/attack_top.py)
    counts each cell as the kind's own attack ranking does: over every release it ranks the
    attackers as that ranking does; over the top one it counts only the releases ranked
    first, never an attacker's own."""
    from pwscup.competitions.attack_top import attack_top_scores, top_releases
    from pwscup.kinds import kind_of
    from scoring.scorer.matrix import rank

    if not player.attack_matrix:
        pytest.skip(f"{player.key} has no attack matrix")
    arena = player.matrix_arena(slug="topn")
    player.close(arena)
    player.publish(arena)  # the results every ranking is read from (a synthetic round's final half)
    player.run_jobs()
    if hasattr(arena.state, "refresh_from_db"):
        arena.state.refresh_from_db()
    view = player.matrix_view(arena)
    letter_of = {team.pk: letter for letter, team in arena.teams.items()}
    arena.round.attack_top_n = 1000
    every = attack_top_scores(arena.round)
    ranked = {letter: r for letter, r in view.attack_ranks.items() if r is not None}
    assert ranked  # the guard: the arena's attackers rank
    if any(r is None for r in view.target_ranks.values()):
        # A release without a rank never counts (the synthetic arena's releases fail the
        # gate): with none ranked, no attacker has a score; the rest needs them ranked.
        if all(r is None for r in view.target_ranks.values()):
            assert all(value is None for value in every.values())
        return
    assert {letter_of[pk] for pk, value in every.items() if value is not None} == set(ranked)
    higher = kind_of(arena.round).attack_cells(arena.round).higher_is_better
    ranks = rank({letter_of[pk]: value for pk, value in every.items()}, higher_is_better=higher)
    assert {k: v for k, v in ranks.items() if v is not None} == ranked

    arena.round.attack_top_n = 1
    cells = kind_of(arena.round).attack_cells(arena.round)
    first = top_releases(cells, 1)
    assert {letter_of[pk] for pk in first} == {
        letter for letter, r in view.target_ranks.items() if r == 1
    }
    for attacker, value in attack_top_scores(arena.round).items():
        counted = [cells.cells[t][attacker] for t in first if attacker in cells.cells[t]]
        assert value == (sum(counted) / len(counted) if counted else None)


def test_the_top_n_by_the_total_with_the_best_other_and_the_sum(player):
    """PWSCup 2024's reading of the core's top-N attack score, on each kind's own matrix: the
    top N by the round's total (here ``1``: every team the kind names scores for ties
    first), an attacker's own release counted as the best other attacker's cell on it, the
    cells summed. Written from docs/organizers.md, cell by cell."""
    from pwscup.competitions.attack_top import attack_top_scores
    from pwscup.kinds import kind_of

    if not player.attack_matrix:
        pytest.skip(f"{player.key} has no attack matrix")
    arena = player.matrix_arena(slug="topt")
    player.close(arena)
    player.publish(arena)
    player.run_jobs()
    if hasattr(arena.state, "refresh_from_db"):
        arena.state.refresh_from_db()
    round_ = arena.round
    cells = kind_of(round_).attack_cells(round_)
    top = set(kind_of(round_).named_scores(round_)["teams"])
    best = max if cells.higher_is_better else min
    expected = {}
    for attacker in {a for row in cells.cells.values() for a in row}:
        counted = []
        for target in top & set(cells.cells):
            row = cells.cells[target]
            others = [v for other, v in row.items() if other != attacker and v is not None]
            if target == attacker and others:
                counted.append(best(others))
            elif target != attacker and row.get(attacker) is not None:
                counted.append(row[attacker])
        expected[attacker] = sum(counted) if counted else None
    # The guard: an attacker's own release is among the top, and another attacker hit it.
    assert any(
        attacker in top and any(other != attacker for other in cells.cells.get(attacker, {}))
        for attacker in expected
    )
    round_.total_formula, round_.attack_top_n = "1", 1
    before = attack_top_scores(round_)
    round_.attack_top_by, round_.attack_top_own, round_.attack_top_combine = (
        "total",
        "best_other",
        "sum",
    )
    scores = attack_top_scores(round_)
    assert scores == pytest.approx(expected)
    assert scores != before  # the settings change the numbers on this arena
