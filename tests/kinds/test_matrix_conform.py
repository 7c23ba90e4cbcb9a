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
