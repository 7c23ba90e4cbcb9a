"""scoring.standings: the three rules on tiny hand-made places, and the tie rule."""

import pytest

from scoring.standings import (
    INVERSE_RANK_SUM,
    WEIGHTED_RANK,
    WEIGHTED_SCORE,
    Place,
    combined_value,
    higher_is_better,
    standings_ranks,
)


def test_each_rule_on_a_preliminary_and_a_final():
    pre, final = [Place(2, 0.4), Place(1, 0.9)], [Place(3, 0.5), Place(1, 0.7)]
    rounds = [(0.1, pre), (0.9, final)]
    assert combined_value(WEIGHTED_RANK, rounds) == pytest.approx(0.1 * 3 + 0.9 * 4)
    assert combined_value(INVERSE_RANK_SUM, rounds) == pytest.approx(0.1 / 3 + 0.9 / 4)
    assert combined_value(WEIGHTED_SCORE, rounds) == pytest.approx(0.1 * 1.3 + 0.9 * 1.2)


def test_an_unranked_place_gives_no_value_never_zero():
    rounds = [(0.1, [Place(1, 0.5)]), (0.9, [Place(None, 0.2)])]
    for rule in (WEIGHTED_RANK, INVERSE_RANK_SUM, WEIGHTED_SCORE):
        assert combined_value(rule, rounds) is None
    assert combined_value(WEIGHTED_SCORE, [(1.0, [Place(1, None)])]) is None


def test_an_unknown_rule_is_refused():
    with pytest.raises(ValueError, match="unknown rule"):
        combined_value("best_of", [(1.0, [Place(1, 1.0)])])


def test_the_direction_of_each_rule():
    assert higher_is_better(INVERSE_RANK_SUM) and not higher_is_better(WEIGHTED_RANK)
    assert not higher_is_better(WEIGHTED_SCORE, scores_higher=False)


def test_values_equal_but_for_float_noise_share_a_rank():
    noisy = 0.1 * 3 + 0.9 * 1  # 1.2000000000000002
    assert noisy != 1.2
    ranked = standings_ranks([("x", noisy), ("y", 1.2), ("z", 2.0)], higher=False)
    assert ranked == [(1, "x", noisy), (1, "y", 1.2), (3, "z", 2.0)]


def test_the_combined_value_carries_no_float_noise():
    """PWSCup 2021's 1 : 9, ranks 3 and 4: the sum is 3.9000000000000004 in floating point;
    the value the page, its CSV and the API give is the one the ranks compare, 3.9."""
    assert 0.1 * 3 + 0.9 * 4 != 3.9
    rounds = [(0.1, [Place(3, None)]), (0.9, [Place(4, None)])]
    assert repr(combined_value(WEIGHTED_RANK, rounds)) == "3.9"
    scores = [(0.1, [Place(1, 0.1), Place(1, 0.2)]), (0.9, [Place(1, 0.3)])]
    assert repr(combined_value(WEIGHTED_SCORE, scores)) == "0.3"
