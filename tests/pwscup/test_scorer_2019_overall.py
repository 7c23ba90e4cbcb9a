"""PWSCup 2019's overall award, ``s_I,min(IDP) + s_T,min(TRP)``, computed by a ranking program
from ``standings.json``'s ``attacks``, which holds every score of each counted upload (the
trace inference beside the primary re-identification): docs/scorer.md, "Older editions on
this kind", the worked example. Three teams, one target per upload, the jobs run in the real
sandbox; the numbers are worked out by hand below."""

from pathlib import Path

import pytest

from pwscup.scorer import services
from tests.pwscup.membership_2025_world import ranking_run
from tests.pwscup.scorer_world import (
    attack,
    attack_phase,
    program_version,
    release,
    scorer_world,
    zipped,
)

pytestmark = pytest.mark.django_db

CONFIG = {
    "release_columns": [{"key": "utility", "higher_is_better": True}],
    "attack_columns": [
        {"key": "reid", "higher_is_better": True},
        {"key": "trace", "higher_is_better": True},
    ],
    "attack_mode": "per_target",
    "protection_rule": "worst",
    "release_rank": "protection",
    "unattacked": 0,
    "ranking": "program",
    "limits": {"timeout_seconds": 60, "memory_mb": 1024, "processes": 64},
}
METADATA = b"""release_command: python3 $program/score.py release $input $output
attack_command: python3 $program/score.py attack $input $output
ranking_command: python3 $program/score.py ranking $input $output
"""


def test_a_ranking_program_computes_2019s_overall_award_from_the_trace_scores():
    made = scorer_world(slug="t19", config=CONFIG, build=False)
    program = Path(__file__).with_name("trace_2019_program.py").read_bytes()
    program_version(made, zipped({"metadata": METADATA, "score.py": program}))
    for letter, utility in {"a": b"0.8", "b": b"0.9", "c": b"0.75"}.items():
        assert release(made, letter, utility, name="u.txt").status == "finished"
    targets = attack_phase(made)
    kept = {}
    for name, letter, target, guess in [
        ("b1", "b", "teama", b"0.2 0.9"),  # B's first on A: its best trace inference
        ("b2", "b", "teama", b"0.5 0.1"),  # B's second on A: its best re-identification
        ("c", "c", "teama", b"0.3 0.4"),
        ("a", "a", "teamb", b"0.1 0.2"),  # nobody attacks C
    ]:
        kept[name] = attack(made, letter, guess, target=targets[target], name="guess.txt")
        assert kept[name].status == "finished", kept[name].message

    cells = services.standings_input(scorer=made.scorer)["attacks"]
    # B's counted upload on A is its best by the primary (reid): #2, with its trace.
    assert cells["teama"]["teamb"] == {
        "upload": kept["b2"].pk,
        "scores": {"reid": 0.5, "trace": 0.1},
    }
    assert cells["teamc"] == {}
    # A: max reid 0.5 (B), max trace 0.4 (C; B's 0.9 is in its upload that does not count):
    # (1 - 0.5) + (1 - 0.4) = 1.1. B: (1 - 0.1) + (1 - 0.2) = 1.7. C, not attacked: 1 + 1.
    # Attack: each attacker's mean reid over the two other releases, one not attacked as 0:
    # A 0.1 / 2, B 0.5 / 2, C 0.3 / 2.
    assert ranking_run(made) == {
        "teama": {"release": 1.1, "attack": 0.05},
        "teamb": {"release": 1.7, "attack": 0.25},
        "teamc": {"release": 2.0, "attack": 0.15},
    }


def test_a_release_failing_a_gate_ranks_after_the_passing_ones_where_a_program_ranks():
    """The gate's rule holds whoever ranks: the program's best number on a release under
    the gate ``utility ≥ 0.7`` (2019's s_req) ranks after every passing release in the
    round's table, and has no rank in the standings."""
    from pwscup.scorer import selectors
    from pwscup.scorer.standings import published_rankings

    made = scorer_world(
        slug="g19", config={**CONFIG, "gates": [{"key": "utility", "min": 0.7}]}, build=False
    )
    program = Path(__file__).with_name("trace_2019_program.py").read_bytes()
    program_version(made, zipped({"metadata": METADATA, "score.py": program}))
    for letter, utility in {"a": b"0.8", "b": b"0.9", "c": b"0.65"}.items():
        assert release(made, letter, utility, name="u.txt").status == "finished"
    targets = attack_phase(made)
    for letter, target, guess in [("b", "teama", b"0.5 0.1"), ("a", "teamb", b"0.1 0.2")]:
        kept = attack(made, letter, guess, target=targets[target], name="guess.txt")
        assert kept.status == "finished", kept.message
    # The program gives C, not attacked, 2.0, B 1.7 and A 1.4; C fails the gate.
    assert ranking_run(made)["teamc"]["release"] == 2.0
    board = selectors.standings(scorer=made.scorer)
    assert [(row.team.slug, row.rank) for row in board.releases] == [
        ("teamb", 1),
        ("teama", 2),
        ("teamc", 3),
    ]
    made.scorer.results_published = True
    made.scorer.save(update_fields=["results_published"])
    release_ranking = published_rankings(made.round)[0]
    assert {row.team.slug: row.rank for row in release_ranking.rows} == {
        "teamb": 1,
        "teama": 2,
        "teamc": None,
    }
