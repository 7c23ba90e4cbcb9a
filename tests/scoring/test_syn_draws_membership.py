"""No team's challenge set tells its membership to whoever holds the other teams' members
(spec §1; issue 46). One person may register many teams and pool their ``teamX_train.csv``;
the best use of them against team X is "a challenge row of X held by another team is a
member". It must be at chance for every team: while the original holds disjoint teams (no
challenge row is held by another team), once it is exhausted (rows held by others are
members and non-members alike), and at the boundary where a team's members would still fit
in the free rows but its non-members would not.

The bound: among the ``seen`` challenge rows (held by another team), the members are a
hypergeometric count with mean ``seen / 2`` and a spread below the binomial's
``sqrt(seen) / 2``; the tests allow four of those and need ``seen`` of 800 or more. Seen
members / seen rows under the rule before issue 46 → this one (the same seeds):

* exhausted, the 4 late teams: 1973 / 2684 (73.5 %) → 1967 / 3954 (49.7 %);
* exhausted, the last team: 1111 / 1111 (100 %) → 1111 / 2214 (50.2 %);
* the boundary team: 1958 / 1958 (100 %) → 1958 / 3919 (50.0 %);
* Adult at the spec's sizes, teams 12-16, seed 1: 905 / 1032 (87.7 %) → 905 / 1818 (49.8 %).
"""

import numpy as np
import pytest

from scoring.synthetic.config import parse_config
from scoring.synthetic.draws import disjoint_teams, draw_shared, draw_team

SMALL = parse_config(
    {
        "columns": {"x": "numeric", "y": "categorical"},
        "label": "y",
        "n_holdout": 50,
        "n_aux": 40,
        "n_train": 60,
        "n_challenge": 20,
    }
)
# The spec's sizes; 32,561 rows is Adult, the demo's original.
SPEC = parse_config(
    {
        "columns": {"x": "numeric", "y": "categorical"},
        "label": "y",
        "n_holdout": 5000,
        "n_aux": 2000,
        "n_train": 2000,
        "n_challenge": 400,
    }
)
PER_TEAM = 60 + 20 // 2
SHARED = 50 + 40
SPREADS = 4


def _sizes(config):
    keys = ("n_holdout", "n_aux", "n_train", "n_challenge")
    return {key: getattr(config, key) for key in keys}


def _round(size, config, *, teams, seed):
    shared = draw_shared(size, config, seed=seed)
    draws, taken = [], np.array([], dtype=np.int64)
    for k in range(teams):
        draw = draw_team(size, config, seed=seed, team=f"team{k}", shared=shared, taken=taken)
        draws.append(draw)
        taken = np.union1d(taken, draw.rows_taken())
    return draws


def _seen(draws, index):
    """(members, rows) among team ``index``'s challenge rows held by any other team."""
    others = np.concatenate([d.members for k, d in enumerate(draws) if k != index])
    seen = np.isin(draws[index].challenge, others)
    return int(draws[index].labels[seen].sum()), int(seen.sum())


def _tally(size, config, *, teams, seeds, judged):
    """Members and rows seen, summed over the seeds and the teams ``judged(draws)`` names."""
    members = seen = 0
    for seed in seeds:
        draws = _round(size, config, teams=teams, seed=seed)
        for index in judged(draws):
            m, k = _seen(draws, index)
            members, seen = members + m, seen + k
    return members, seen


def _assert_chance(members, seen, *, at_least):
    assert seen >= at_least, f"too few rows held by other teams to judge: {seen}"
    spread = np.sqrt(seen) / 2
    assert abs(members - seen / 2) <= SPREADS * spread, (
        f"{members} of {seen} challenge rows held by another team are members "
        f"({members / seen:.1%}; chance is 50 % ± {SPREADS * spread / seen:.1%})"
    )


def _late(draws):
    return [k for k, d in enumerate(draws) if not d.disjoint]


def test_disjoint_teams_counts_the_teams_drawn_disjointly():
    for size in (SHARED + PER_TEAM, SHARED + 3 * PER_TEAM - 1, SHARED + 3 * PER_TEAM, 400):
        draws = _round(size, SMALL, teams=8, seed=3)
        assert sum(d.disjoint for d in draws) == disjoint_teams(size, **_sizes(SMALL))
        assert all(d.disjoint for d in draws[: disjoint_teams(size, **_sizes(SMALL))])
    assert disjoint_teams(32561, **_sizes(SPEC)) == 11


def test_while_the_pool_lasts_no_challenge_row_is_held_by_another_team():
    # 4 disjoint teams; drawn alone, every challenge row is the team's own.
    size = SHARED + 4 * PER_TEAM
    for seed in range(20):
        draws = _round(size, SMALL, teams=4, seed=seed)
        assert all(d.disjoint for d in draws)
        assert [_seen(draws, k)[1] for k in range(4)] == [0, 0, 0, 0]


# 4 disjoint teams, then 69 rows no team holds: fewer than a team takes, and the late teams
# draw independently (as Adult's 1,361 rows left after 11 teams at the spec's sizes).
EXHAUSTED = SHARED + 4 * PER_TEAM + 69


def test_once_the_pool_is_exhausted_rows_held_by_others_are_members_by_chance():
    # Every late team judged, then every team: the late teams' members may be the early
    # teams' challenge rows.
    members, seen = _tally(EXHAUSTED, SMALL, teams=8, seeds=range(60), judged=_late)
    _assert_chance(members, seen, at_least=2500)
    members, seen = _tally(
        EXHAUSTED, SMALL, teams=8, seeds=range(60), judged=lambda d: range(len(d))
    )
    _assert_chance(members, seen, at_least=5000)


def test_the_last_team_of_an_exhausted_round_is_at_chance():
    # The worst case of the rule before issue 46: every other team drew before it.
    members, seen = _tally(
        EXHAUSTED, SMALL, teams=6, seeds=range(150), judged=lambda d: [len(d) - 1]
    )
    _assert_chance(members, seen, at_least=1000)


def test_at_the_boundary_members_that_would_fit_are_not_drawn_apart_from_non_members():
    # 3 disjoint teams, then 65 free rows: room for 60 members, not for 60 + 10 rows.
    size = SHARED + 3 * PER_TEAM + 65
    assert disjoint_teams(size, **_sizes(SMALL)) == 3
    draws = _round(size, SMALL, teams=4, seed=0)
    assert [d.disjoint for d in draws] == [True, True, True, False]
    members, seen = _tally(size, SMALL, teams=4, seeds=range(300), judged=lambda d: [3])
    _assert_chance(members, seen, at_least=1500)


@pytest.mark.parametrize("seed", [1, 2])
def test_adult_at_the_spec_sizes_late_teams_are_at_chance(seed):
    # The demo's round: teams 12 to 16 overlap the others; a coalition holding the other 15
    # teams' members learns nothing of their challenge sets.
    draws = _round(32561, SPEC, teams=16, seed=seed)
    assert [d.disjoint for d in draws] == [True] * 11 + [False] * 5
    members = seen = 0
    for index in _late(draws):
        m, k = _seen(draws, index)
        members, seen = members + m, seen + k
    _assert_chance(members, seen, at_least=800)
