"""Utility of an estimate (spec dp-round.md §4) and the leaderboard's ranking (§7.5).

* **L2** ``sqrt(Σ_c (ŷ_c − z_c)²)``, lower is better.
* **Spearman** ρ_s: the Pearson correlation of the rank vectors (rank 1 smallest, ties
  take the mean of their ranks); 0 when either rank vector is constant.

Examples
--------
>>> z = [0, 2, 2, 1, 2, 3]
>>> round(spearman([3, 1, 2, 2, 5, 4], z), 6), spearman([5] * 6, z), spearman(z, z)
(0.215614, 0.0, 1.0)
>>> round(l2([1, 2, 1, 2, 1, 3], z), 4)
2.0
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from scoring import ranking
from scoring.extras import optional


def l2(estimate, truth) -> float:
    """The L2 distance between an estimate and the true histogram (records)."""
    diff = np.asarray(estimate, dtype=float) - np.asarray(truth, dtype=float)
    return float(np.sqrt(np.dot(diff, diff)))


def spearman(estimate, truth) -> float:
    """Spearman's rank correlation with average ranks for ties; 0 for a constant vector."""
    return float(spearman_rows(np.asarray(estimate, dtype=float)[None, :], truth)[0])


def spearman_rows(estimates: np.ndarray, truth) -> np.ndarray:
    """ρ_s of each row of ``estimates`` (trials × V) against ``truth``, vectorised."""
    rankdata = optional("scipy.stats", extra="dp").rankdata
    estimates = np.atleast_2d(np.asarray(estimates, dtype=float))
    rx = rankdata(estimates, axis=1)
    ry = rankdata(np.asarray(truth, dtype=float))
    rx = rx - rx.mean(axis=1, keepdims=True)
    ry = ry - ry.mean()
    sxx = (rx * rx).sum(axis=1)
    syy = np.dot(ry, ry)
    numerator = rx @ ry
    out = np.zeros(estimates.shape[0])
    ok = (sxx > 1e-24) & (syy > 1e-24)
    out[ok] = numerator[ok] / np.sqrt(sxx[ok] * syy)  # sqrt(a·a) == a: ρ_s(z, z) is exactly 1
    return np.clip(out, -1.0, 1.0)


def l2_rows(estimates: np.ndarray, truth) -> np.ndarray:
    """L2 of each row of ``estimates`` (trials × V) against ``truth``."""
    diff = np.atleast_2d(np.asarray(estimates, dtype=float)) - np.asarray(truth, dtype=float)
    return np.sqrt((diff * diff).sum(axis=1))


def score_estimates(estimates: dict[str, Any], truths: dict[str, Any]) -> dict[str, Any]:
    """Score every target (L2 and ρ_s) and their means (``target_aggregate`` = mean).

    Returns
    -------
    dict
        ``{"targets": {id: {"l2": .., "spearman": ..}}, "l2": mean, "spearman": mean}``.

    Examples
    --------
    >>> score_estimates({"t": [0, 2, 2, 1, 2, 3]}, {"t": [0, 2, 2, 1, 2, 3]})
    {'targets': {'t': {'l2': 0.0, 'spearman': 1.0}}, 'l2': 0.0, 'spearman': 1.0}
    """
    targets = {
        key: {"l2": l2(estimates[key], truth), "spearman": spearman(estimates[key], truth)}
        for key, truth in truths.items()
    }
    return {
        "targets": targets,
        "l2": float(np.mean([t["l2"] for t in targets.values()])),
        "spearman": float(np.mean([t["spearman"] for t in targets.values()])),
    }


def postprocess_counts(counts, n: int, mode: str) -> np.ndarray:
    """The declared standard post-processing of noisy counts: ``raw`` or ``clamp_rescale``.

    ``clamp_rescale`` clamps at 0 and rescales to sum ``n`` (free post-processing).

    Examples
    --------
    >>> answer = [0, 2, 2, 1, 2, 3] + np.random.default_rng(7).laplace(0, 2.0, size=6)
    >>> postprocess_counts(answer, 10, "clamp_rescale").round(4).tolist()
    [0.3583, 3.213, 2.2419, 0.0, 0.6094, 3.5774]
    """
    values = np.asarray(counts, dtype=float)
    if mode == "raw":
        return values
    clamped = np.clip(values, 0.0, None)
    total = clamped.sum()
    if total <= 0:
        return np.full_like(values, n / values.size)
    return clamped * (n / total)


@dataclass(frozen=True)
class Entry:
    """A leaderboard row to rank: its mean L2 and ρ_s, gate result and final-estimate time."""

    key: Any
    l2: float
    spearman: float
    submitted_at: Any = 0
    passes_gate: bool = True


def rank_entries(entries: Sequence[Entry], *, rank_metric: str = "l2") -> dict[Any, int]:
    """Ranks of a level's table (§7.5): by ``rank_metric``, then the other metric, then time.

    Teams failing the gate come after the rest; rows equal on every key share a rank
    (1, 2, 2, 4).

    Examples
    --------
    >>> rank_entries([Entry("a", 5.0, 0.9), Entry("b", 3.0, 0.5), Entry("c", 5.0, 0.9),
    ...               Entry("d", 1.0, 0.9, passes_gate=False)])
    {'b': 1, 'a': 2, 'c': 2, 'd': 4}
    """

    def key(entry: Entry):
        main, other = (
            (entry.l2, -entry.spearman) if rank_metric == "l2" else (-entry.spearman, entry.l2)
        )
        return (not entry.passes_gate, main, other, entry.submitted_at)

    return {entry.key: rank for rank, entry in ranking.competition_ranks(entries, key=key)}


def level_rank(ranks: dict[Any, int], team) -> int:
    """A team's rank at one level for the overall sum: its own, or, missing at that level,
    the level's last rank + 1 (§7.5).

    >>> level_rank({"a": 1, "b": 2}, "a"), level_rank({"a": 1, "b": 2}, "c")
    (1, 3)
    """
    return ranks.get(team, max(ranks.values(), default=0) + 1)


def overall_ranks(level_ranks: Sequence[dict[Any, int]]) -> dict[Any, int]:
    """The overall ranking (§7.5): sum of per-level ranks, ties broken by the first level's rank.

    ``level_ranks`` is ordered by ε, smallest first; a team missing at a level gets that
    level's last rank + 1.

    Examples
    --------
    >>> overall_ranks([{"a": 1, "b": 2, "c": 3}, {"a": 3, "b": 2, "c": 1}])
    {'a': 1, 'b': 2, 'c': 3}
    """
    teams = {team for ranks in level_ranks for team in ranks}
    totals = {}
    for team in teams:
        totals[team] = sum(level_rank(ranks, team) for ranks in level_ranks)
    first = level_ranks[0] if level_ranks else {}
    by_name = sorted(teams, key=str)
    ranked = ranking.competition_ranks(by_name, key=lambda t: (totals[t], level_rank(first, t)))
    return {team: rank for rank, team in ranked}
