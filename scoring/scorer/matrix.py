"""The leaderboards' rules of a round whose game is the organizer's program: pure functions.

The attack matrix is ``{target: {attacker: the attack's primary score}}`` (an attacker
never attacks itself; a missing cell is an attack not made). The attack primary is the
attacker's success, so a release's protection is measured in the same unit and its
direction is the opposite of the attack's (:mod:`scoring.scorer.round_config`).

Examples
--------
>>> matrix = {"a": {"b": 0.5, "c": 0.25}, "b": {"a": 1.0}, "c": {}}
>>> protection(matrix, rule="worst", attack_higher_is_better=True)
{'a': 0.5, 'b': 1.0, 'c': None}
>>> power(matrix, rule="mean", top=None, attack_higher_is_better=True)
{'a': 1.0, 'b': 0.5, 'c': 0.25}
>>> rank({"a": 3.0, "b": 5.0, "c": 3.0, "d": 1.0, "e": None}, higher_is_better=True)
{'a': 2, 'b': 1, 'c': 2, 'd': 4, 'e': None}
"""

from __future__ import annotations

import bisect
from collections.abc import Mapping, Sequence
from math import fsum
from statistics import fmean

PROTECTION_RULES = ("worst", "mean")
POWER_RULES = ("mean", "top_n")
# An attacker's own release among the counted targets: left out, or counted as the best
# score any other attacker reached on it (PWSCup 2024 and 2025).
OWN_RELEASE_RULES = ("left_out", "best_other")
# How an attacker's counted scores combine: their mean, or their sum (PWSCup 2024 and 2025:
# the sum of successes).
COMBINE_RULES = ("mean", "sum")
RELEASE_RANKS = ("primary", "protection", "rank_sum")


def band(value: float, bands: Sequence[float]) -> int:
    """How many of the ascending thresholds ``bands`` ``value`` is at or above.

    Examples
    --------
    >>> [band(v, [0.25, 0.5, 0.75]) for v in (0.0, 0.25, 0.6, 0.75, 1.0)]
    [0, 1, 2, 3, 3]
    """
    return bisect.bisect_right(list(bands), value)


def band_label(index: int, bands: Sequence[float]) -> str:
    """The text of band ``index`` of ``bands`` (0 … ``len(bands)``).

    Examples
    --------
    >>> [band_label(i, [0.25, 0.5, 0.75]) for i in range(4)]
    ['< 0.25', '0.25–0.5', '0.5–0.75', '≥ 0.75']
    """
    if not 0 <= index <= len(bands):
        raise ValueError(f"band {index} is not between 0 and {len(bands)}")
    if index == 0:
        return f"< {bands[0]:g}"
    if index == len(bands):
        return f"≥ {bands[-1]:g}"
    return f"{bands[index - 1]:g}–{bands[index]:g}"


def protection(
    matrix: Mapping[str, Mapping[str, float]],
    *,
    rule: str,
    attack_higher_is_better: bool,
    missing: float | None = None,
) -> dict[str, float | None]:
    """Each target's protection: the attacks on it under ``rule``.

    ``worst`` is the attackers' best score against it (the highest when a higher attack score
    is better for the attacker, else the lowest); ``mean`` the mean over the attackers who
    attacked it. A target nobody attacked gets ``None``. With ``missing`` (the round's
    ``unattacked``), every other team of the matrix (a target or an attacker) that did not
    attack the target counts that score instead (PWSCup 2019: an attack not made is 0).

    Examples
    --------
    >>> protection({"a": {"b": 0.2, "c": 0.4}}, rule="worst", attack_higher_is_better=False)
    {'a': 0.2}
    >>> protection({"a": {"b": 0.2, "c": 0.4}}, rule="mean", attack_higher_is_better=False)
    {'a': 0.30000000000000004}
    >>> protection({"a": {"b": 0.5}, "b": {}}, rule="mean", attack_higher_is_better=True,
    ...            missing=0.0)
    {'a': 0.5, 'b': 0.0}
    """
    if rule not in PROTECTION_RULES:
        raise ValueError(f"unknown protection rule {rule!r}; expected one of {PROTECTION_RULES}")
    best = max if attack_higher_is_better else min
    teams = _teams(matrix)
    result: dict[str, float | None] = {}
    for target, attacks in matrix.items():
        values = [v for attacker, v in attacks.items() if attacker != target and v is not None]
        if missing is not None:
            values += [missing for team in teams - {target} if attacks.get(team) is None]
        if not values:
            result[target] = None
        else:
            result[target] = best(values) if rule == "worst" else fmean(values)
    return result


def power(
    matrix: Mapping[str, Mapping[str, float]],
    *,
    rule: str,
    top: Sequence[str] | None,
    attack_higher_is_better: bool,
    missing: float | None = None,
    own: str = "left_out",
    combine: str = "mean",
) -> dict[str, float | None]:
    """Each attacker's power: its mean score over the targets it attacked.

    ``mean`` counts every target but itself; ``top_n`` only the targets of ``top`` (the N
    best releases, :func:`top_releases`). A target not attacked is missing: it counts
    neither as zero nor as the worst value, so the mean is over the targets attacked, and an
    attacker who attacked none that count gets ``None``. With ``missing`` (the round's
    ``unattacked``), a counted target an attacker did not attack counts that score. (A mean
    does not depend on the direction; ``attack_higher_is_better`` is there to rank the
    result the same way.)

    ``own``: an attacker's own release, when it is counted, is left out (``left_out``) or
    counts as the best score another attacker reached on it (``best_other``: the highest
    when a higher attack score is better, else the lowest; with ``missing``, a team that
    did not attack it counts that score; nobody's: it is left out). ``combine``: the
    counted scores' ``mean`` or their ``sum``.

    Examples
    --------
    >>> matrix = {"a": {"b": 0.5, "c": 0.25}, "b": {"a": 1.0, "c": 0.75}, "c": {"a": 0.0}}
    >>> power(matrix, rule="top_n", top=["a", "b"], attack_higher_is_better=True)
    {'a': 1.0, 'b': 0.5, 'c': 0.5}
    >>> power(matrix, rule="top_n", top=["c"], attack_higher_is_better=True)
    {'a': 0.0, 'b': None, 'c': None}
    >>> power(matrix, rule="mean", top=None, attack_higher_is_better=True, missing=0.0)
    {'a': 0.5, 'b': 0.25, 'c': 0.5}
    >>> power(matrix, rule="top_n", top=["a", "b"], attack_higher_is_better=True,
    ...       own="best_other", combine="sum")
    {'a': 1.5, 'b': 1.5, 'c': 1.0}
    """
    if rule not in POWER_RULES:
        raise ValueError(f"unknown power rule {rule!r}; expected one of {POWER_RULES}")
    if own not in OWN_RELEASE_RULES:
        raise ValueError(f"unknown own-release rule {own!r}; expected one of {OWN_RELEASE_RULES}")
    if combine not in COMBINE_RULES:
        raise ValueError(f"unknown combination {combine!r}; expected one of {COMBINE_RULES}")
    if rule == "top_n" and top is None:
        raise ValueError("the top_n power rule needs the top releases (top)")
    counted = set(matrix) if rule == "mean" else set(top or ())
    scores: dict[str, list[float]] = {}
    for target, attacks in matrix.items():
        for attacker, value in attacks.items():
            scores.setdefault(attacker, [])
            if target in counted and attacker != target and value is not None:
                scores[attacker].append(value)
    if missing is not None:
        for attacker, values in scores.items():
            values += [
                missing
                for target in counted & set(matrix)
                if target != attacker and matrix[target].get(attacker) is None
            ]
    if own == "best_other":
        best_other = protection(
            matrix, rule="worst", attack_higher_is_better=attack_higher_is_better, missing=missing
        )
        for attacker, values in scores.items():
            if attacker in counted and best_other.get(attacker) is not None:
                values.append(best_other[attacker])
    combined = fmean if combine == "mean" else fsum
    return {attacker: combined(v) if v else None for attacker, v in sorted(scores.items())}


def _teams(matrix: Mapping[str, Mapping[str, float]]) -> set[str]:
    """Every team of the matrix: its targets and its attackers."""
    return set(matrix) | {attacker for attacks in matrix.values() for attacker in attacks}


def top_releases(
    release_scores: Mapping[str, float | None], *, n: int, higher_is_better: bool
) -> list[str]:
    """The ``n`` best releases by their primary score (ties broken by name; no score, none).

    Examples
    --------
    >>> top_releases({"a": 1.0, "b": 3.0, "c": 3.0, "d": None}, n=2, higher_is_better=True)
    ['b', 'c']
    >>> top_releases({"a": 1.0, "b": 3.0, "c": 3.0}, n=2, higher_is_better=False)
    ['a', 'b']
    """
    scored = [(name, value) for name, value in release_scores.items() if value is not None]
    scored.sort(key=lambda item: (-item[1] if higher_is_better else item[1], item[0]))
    return [name for name, _ in scored[:n]]


def rank(values: Mapping[str, float | None], *, higher_is_better: bool) -> dict[str, int | None]:
    """Competition ranks ("1224"): 1 + how many values are strictly better; ``None`` unranked.

    Examples
    --------
    >>> rank({"a": 0.1, "b": 0.1, "c": 0.3}, higher_is_better=False)
    {'a': 1, 'b': 1, 'c': 3}
    """
    keys = {
        name: (-value if higher_is_better else value)
        for name, value in values.items()
        if value is not None
    }
    ranks = _competition(keys)
    return {name: ranks.get(name) for name in values}


def release_ranking(
    primary: Mapping[str, float | None],
    protection: Mapping[str, float | None],
    *,
    rule: str,
    primary_higher_is_better: bool,
    protection_higher_is_better: bool,
    failed_gate: set[str] | frozenset[str] = frozenset(),
) -> list[tuple[str, int | None]]:
    """Every team (of ``primary`` or ``protection``) with its release's rank under ``rule``.

    ``primary`` ranks by the primary score, ``protection`` by the protection (ties keep one
    rank), ``rank_sum`` by the sum of both ranks, ties broken by the primary score. The teams
    of ``failed_gate`` are ranked among themselves after every passing team (their ranks go
    on from the passing teams' count); a team without the values its rank needs is unranked
    (``None``) and listed last. The list is in rank order, ties by name.

    Examples
    --------
    >>> primary = {"a": 80.0, "b": 90.0, "c": 70.0, "d": 95.0}
    >>> shield = {"a": 0.1, "b": 0.5, "c": 0.2, "d": None}
    >>> release_ranking(primary, shield, rule="rank_sum", primary_higher_is_better=True,
    ...                 protection_higher_is_better=False, failed_gate={"c"})
    [('b', 1), ('a', 2), ('c', 3), ('d', None)]
    """
    if rule not in RELEASE_RANKS:
        raise ValueError(f"unknown release rank {rule!r}; expected one of {RELEASE_RANKS}")
    teams = sorted(set(primary) | set(protection))
    passing = [team for team in teams if team not in failed_gate]
    failing = [team for team in teams if team in failed_gate]
    ranks: dict[str, int | None] = {}
    offset = 0
    for group in (passing, failing):
        keys = _keys(
            group, primary, protection, rule, primary_higher_is_better, protection_higher_is_better
        )
        group_ranks = _competition(keys)
        for team in group:
            ranks[team] = group_ranks[team] + offset if team in group_ranks else None
        offset += len(group_ranks)
    order = {team: position for position, team in enumerate(passing + failing)}
    return sorted(
        ranks.items(),
        key=lambda item: (item[1] is None, item[1] or 0, order[item[0]], item[0]),
    )


def _keys(team_names, primary, protection, rule, primary_higher, protection_higher):
    """Each team's sort key, lower is better (a team missing a value has none)."""

    def signed(values, higher):
        return {
            team: (-values[team] if higher else values[team])
            for team in team_names
            if values.get(team) is not None
        }

    by_primary = signed(primary, primary_higher)
    by_protection = signed(protection, protection_higher)
    if rule == "primary":
        return {team: (key,) for team, key in by_primary.items()}
    if rule == "protection":
        return {team: (key,) for team, key in by_protection.items()}
    both = [team for team in team_names if team in by_primary and team in by_protection]
    primary_ranks = _competition({team: by_primary[team] for team in both})
    protection_ranks = _competition({team: by_protection[team] for team in both})
    return {team: (primary_ranks[team] + protection_ranks[team], by_primary[team]) for team in both}


def _competition(keys: Mapping[str, object]) -> dict[str, int]:
    """1 + how many keys are strictly lower (lower is better)."""
    ordered = sorted(keys.values())
    return {name: bisect.bisect_left(ordered, key) + 1 for name, key in keys.items()}
