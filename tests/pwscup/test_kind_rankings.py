"""The attack ranking the kinds share (``pwscup.submissions.kind_rankings``): the mean over
the other teams' targets, a target not attacked counting as the kind says, a team that
attacked none unranked, a disqualified team left out, ties by name; and its cells for the
core's top-N attack score."""

from dataclasses import dataclass

from pwscup.accounts.selectors import DisqualificationRule
from pwscup.submissions.kind_rankings import mean_attack_ranking, other_target_cells


@dataclass(frozen=True)
class Team:
    pk: int
    name: str


@dataclass(frozen=True)
class Target:
    team_id: int


A, B, C, D = Team(1, "a"), Team(2, "b"), Team(3, "c"), Team(4, "d")
TARGETS = [Target(1), Target(2), Target(3), Target(4)]
ATTACKERS = [
    (C, [0.5, 0.25, None, None]),  # mean over a, b, d: (0.5 + 0.25 + 0) / 3
    (A, [None, 0.25, 0.5, None]),  # (0.25 + 0.5 + 0) / 3: ties with c
    (B, [None, None, None, None]),  # attacked none: no rank
    (D, [0.9, 0.9, 0.9, None]),  # disqualified: no row
]


def test_mean_over_the_others_targets_ties_by_name_none_attacked_last():
    rows = mean_attack_ranking(ATTACKERS, TARGETS, rule=DisqualificationRule(frozenset({4})))
    assert [(r["team"].name, r["rank"], r["attacked"]) for r in rows] == [
        ("a", 1, 2),
        ("c", 1, 2),
        ("b", None, 0),
    ]
    assert rows[0]["mean"] == 0.75 / 3


def test_a_target_not_attacked_counts_as_the_fallback():
    rows = mean_attack_ranking(
        ATTACKERS[:2], TARGETS, rule=DisqualificationRule(), fallback=lambda column: 0.3
    )
    by_name = {r["team"].name: r["mean"] for r in rows}
    assert by_name == {"a": (0.25 + 0.5 + 0.3) / 3, "c": (0.5 + 0.25 + 0.3) / 3}


def test_cells_hold_what_the_mean_counts_for_the_ranked_attackers_only():
    cells = other_target_cells(ATTACKERS, TARGETS, ranked={1, 3})
    assert cells == {
        1: {3: 0.5},
        2: {1: 0.25, 3: 0.25},
        3: {1: 0.5},
        4: {1: 0.0, 3: 0.0},
    }
