"""The synthetic round's draws (spec synthetic-round.md §1): deterministic, disjoint, balanced."""

import numpy as np
import pytest

from scoring.synthetic.config import parse_config
from scoring.synthetic.draws import draw_shared, draw_team, practice_draw
from scoring.synthetic.errors import SynthError

CONFIG = parse_config(
    {
        "columns": {"x": "numeric", "y": "categorical"},
        "label": "y",
        "n_holdout": 50,
        "n_aux": 40,
        "n_train": 60,
        "n_challenge": 20,
    }
)
SIZE = 400


def _teams(names, *, size=SIZE, seed=11):
    shared = draw_shared(size, CONFIG, seed=seed)
    draws, taken = {}, np.array([], dtype=np.int64)
    for name in names:
        draws[name] = draw_team(size, CONFIG, seed=seed, team=name, shared=shared, taken=taken)
        taken = np.union1d(taken, draws[name].rows_taken())
    return shared, draws


def test_the_same_seed_gives_the_same_draws_and_another_seed_others():
    assert _teams(["A", "B"]) == _teams(["A", "B"])
    assert _teams(["A"])[1]["A"] != _teams(["A"], seed=12)[1]["A"]


def test_sizes_and_halves():
    _, draws = _teams(["A"])
    team = draws["A"]
    assert len(team.members) == 60 and len(team.nonmembers) == 10 and len(team.challenge) == 20
    assert team.labels.sum() == 10
    assert (team.labels[team.dev] == 1).sum() == 5 and (team.labels[team.dev] == 0).sum() == 5
    members, nonmembers = set(team.members), set(team.nonmembers)
    assert all(
        (row in members) == bool(label)
        for row, label in zip(team.challenge, team.labels, strict=True)
    )
    assert set(team.challenge) - members == nonmembers


def test_secret_and_public_rows_never_meet_the_teams_rows():
    shared, draws = _teams(["A", "B", "C"])
    assert not set(shared.holdout) & set(shared.aux)
    for team in draws.values():
        assert team.disjoint
        # No member nor non-member is a holdout row or a row of the public auxiliary table.
        assert not set(team.rows_taken()) & (set(shared.holdout) | set(shared.aux))
    a, b, c = (set(draws[k].rows_taken()) for k in "ABC")
    assert not (a & b or a & c or b & c)


def test_a_late_team_draws_from_what_is_left():
    shared, draws = _teams(["A", "B"])
    late = draw_team(
        SIZE,
        CONFIG,
        seed=11,
        team="late",
        shared=shared,
        taken=np.union1d(draws["A"].rows_taken(), draws["B"].rows_taken()),
    )
    assert late.disjoint
    assert not set(late.rows_taken()) & (
        set(draws["A"].rows_taken()) | set(draws["B"].rows_taken())
    )
    # Drawing the late team did not change the others.
    assert _teams(["A", "B"])[1] == draws


def test_when_the_pool_runs_out_the_draw_is_independent():
    # 400 rows − 90 shared = 310 free; each team takes 70, so the fifth finds 30 free rows.
    _, draws = _teams(list("ABCDE"))
    assert [draws[k].disjoint for k in "ABCDE"] == [True, True, True, True, False]
    assert len(set(draws["E"].members)) == 60


def test_a_population_too_small_for_one_team_is_refused():
    with pytest.raises(SynthError, match="needs? 160"):
        draw_shared(159, CONFIG, seed=1)


def test_the_practice_split_is_balanced_and_deterministic():
    draw = practice_draw(100, n_challenge=20, seed=3)
    assert draw == practice_draw(100, n_challenge=20, seed=3)
    assert len(draw.members) == 50 and draw.labels.sum() == 10
    assert (draw.labels[draw.dev] == 1).sum() == 5
    with pytest.raises(SynthError):
        practice_draw(100, n_challenge=18, seed=3)
