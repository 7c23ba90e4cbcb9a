"""``scoring.ranking.competition_ranks``: the one standard competition ranking (1, 2, 2, 4)."""

import random

import pytest

from scoring.ranking import competition_ranks


def ranks(items, **options):
    return [(rank, item) for rank, item in competition_ranks(items, **options)]


def test_equal_keys_share_a_rank_and_the_next_rank_skips():
    scores = {"a": 0.1, "b": 0.3, "c": 0.3, "d": 0.4, "e": 0.4, "f": 0.4, "g": 0.9}
    assert ranks(sorted(scores), key=scores.get) == [
        (1, "a"),
        (2, "b"),
        (2, "c"),
        (4, "d"),
        (4, "e"),
        (4, "f"),
        (7, "g"),
    ]


def test_ties_keep_the_order_they_came_in():
    assert ranks(["z", "y", "x"], key=lambda _item: 0) == [(1, "z"), (1, "y"), (1, "x")]


def test_unranked_items_come_last_without_a_rank_and_take_no_rank_away():
    keys = {"a": 1, "gated": 0, "b": 2, "c": 2, "d": 3}
    ordered = ranks(list(keys), key=keys.get, ranked=lambda item: item != "gated")
    assert ordered == [(1, "a"), (2, "b"), (2, "c"), (4, "d"), (None, "gated")]


def test_tuple_keys_tie_only_when_every_part_is_equal():
    keys = {"a": (False, 0.2, 5), "b": (False, 0.2, 5), "c": (False, 0.2, 6), "d": (True, 0.0, 0)}
    ordered = ranks(list(keys), key=keys.get, ranked=lambda item: not keys[item][0])
    assert ordered == [(1, "a"), (1, "b"), (3, "c"), (None, "d")]


@pytest.mark.parametrize("items", [[], ["only"]])
def test_empty_and_single(items):
    assert ranks(items, key=len) == [(1, item) for item in items]


def test_nobody_ranked():
    assert ranks(["a", "b"], key=len, ranked=lambda _item: False) == [(None, "a"), (None, "b")]


def test_a_rank_is_one_plus_the_number_of_strictly_better_items():
    """The definition, read literally, against the function on tie-heavy random keys."""
    rng = random.Random(7)
    for _ in range(200):
        keys = [rng.randint(0, 4) for _ in range(rng.randint(1, 12))]
        items = list(range(len(keys)))
        for rank, item in competition_ranks(items, key=keys.__getitem__):
            assert rank == 1 + sum(other < keys[item] for other in keys)
