"""Standard competition ranking ("1224"): the one rule that turns an order into ranks.

Every leaderboard of every round kind (the PWSCup 2015 leaderboard and final ranking, the
DP per-level tables and overall rank sums, the sequential leaderboard) gives its ranks
with :func:`competition_ranks`; a kind decides only the sort key and who is ranked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any, TypeVar

Item = TypeVar("Item")


def competition_ranks(
    items: Iterable[Item],
    *,
    key: Callable[[Item], Any],
    ranked: Callable[[Item], bool] | None = None,
) -> list[tuple[int | None, Item]]:
    """``items`` in rank order, each with its standard competition rank.

    Items are sorted by ``key`` (lower is better). The sort is stable, so items with
    equal keys keep the order they came in (sort them by name first for a display
    order). Equal keys share a rank and the next rank skips: 1, 2, 2, 4.

    Items for which ``ranked(item)`` is false (a failed gate, no attack at all) are
    listed after every ranked item, in ``key`` order, with the rank ``None``; they never
    take a rank away from a ranked item.

    Parameters
    ----------
    items : iterable
        The rows to rank.
    key : callable
        Sort key of a row, lower is better; rows with equal keys tie.
    ranked : callable, optional
        Whether a row gets a rank at all (default: every row does).

    Returns
    -------
    list of (int or None, item)
        The rows, best first, each with its rank.

    Examples
    --------
    >>> competition_ranks(["d", "b", "a", "c"], key={"a": 1, "b": 2, "c": 2, "d": 3}.get)
    [(1, 'a'), (2, 'b'), (2, 'c'), (4, 'd')]
    >>> competition_ranks([3, 1, 0, 2], key=lambda x: x, ranked=lambda x: x != 0)
    [(1, 1), (2, 2), (3, 3), (None, 0)]
    """
    is_ranked = ranked or (lambda _item: True)
    flagged = [(not is_ranked(item), key(item), item) for item in items]
    flagged.sort(key=lambda entry: (entry[0], entry[1]))
    out: list[tuple[int | None, Item]] = []
    previous: Any = None
    rank = 0
    for position, (unranked, current, item) in enumerate(flagged, start=1):
        if unranked:
            out.append((None, item))
            continue
        if position == 1 or current != previous:
            rank, previous = position, current
        out.append((rank, item))
    return out
