"""Plausibility tests of declared uploads (spec dp-round.md §8.3), and §3.6's moments.

They flag, never reject: a submission is flagged if any |z| exceeds ``plausibility_z``
(4 by default) or a Gamma tail probability is below ``Pr(Z > plausibility_z)``.

Examples
--------
>>> from scoring.dp._examples import toy_channel
>>> channel = toy_channel()
>>> mean, var = release_moments([0, 2, 2, 1, 2, 3], channel)
>>> mean.round(4).tolist(), var.round(4).tolist()
([0.875, 1.75, 1.875, 1.2917, 1.9167, 2.2917], [0.776, 1.1562, 1.2552, 0.9566, 1.2951, 1.4358])
>>> laplace_counts_test([0, 2, 2, 1, 2, 3], [0, 2, 2, 1, 2, 3], scale=2.0)["flagged"]
True
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from scoring.dp.config import DPConfig
from scoring.dp.data import histogram_of_codes
from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text, parse_epsilon
from scoring.dp.pk import Channel, ReleasePlan, target_channel
from scoring.extras import optional
from scoring.messages import clip

NORMAL_APPROXIMATION_CELLS = 1000


def tail_threshold(z: float = 4.0) -> float:
    """``Pr(Z > z)`` for a standard normal: 3.167e-5 at z = 4."""
    return float(optional("scipy.stats", extra="dp").norm.sf(z))


def release_moments(truth, channel: Channel) -> tuple[np.ndarray, np.ndarray]:
    """E[y] = zA and Var[y_j] = Σ_i z_i A_ij (1 − A_ij) of a released histogram (§3.6)."""
    truth = np.asarray(truth, dtype=float)
    mean = channel.apply(truth)
    return mean, mean - channel.apply_squared(truth)


def retention_probability(rho: float, size: int) -> float:
    """``p_g = ρ_g + (1 − ρ_g)/V_g``: a record's group values come out unchanged."""
    return rho + (1 - rho) / size


def retention_test(
    original: np.ndarray, released: np.ndarray, plan: ReleasePlan, *, z_limit: float = 4.0
):
    """Per group: S_g (rows whose group values are unchanged), its z-score and flag.

    ``original`` and ``released`` are codes (N × plan attributes), row i of the release
    derived from row i of the original (the declared-upload format).
    """
    column = {a: k for k, a in enumerate(plan.attributes)}
    n = original.shape[0]
    out = []
    for group in plan.groups:
        cols = [column[a] for a in group.attributes]
        kept = int(np.all(original[:, cols] == released[:, cols], axis=1).sum())
        p = retention_probability(group.rho, group.size)
        sd = math.sqrt(n * p * (1 - p))
        z = (kept - n * p) / sd if sd > 0 else (0.0 if kept == n * p else math.inf)
        out.append(
            {
                "attributes": list(group.attributes),
                "kept": kept,
                "expected": n * p,
                "sd": sd,
                "z": z,
                "flagged": abs(z) > z_limit,
            }
        )
    return out


def histogram_test(
    released_codes: np.ndarray,
    truth_codes: np.ndarray,
    plan: ReleasePlan,
    config: DPConfig,
    *,
    z_limit: float = 4.0,
) -> dict:
    """Per target and cell: ``z_j = (y_j − E[y_j]) / sqrt(Var[y_j])`` (§8.3), flags and max |z|."""
    column = {a: k for k, a in enumerate(plan.attributes)}
    out = {}
    for target in config.workload:
        cols = [column[a] for a in target.attributes]
        sizes = config.domain_sizes(target.attributes)
        y = histogram_of_codes(released_codes[:, cols], sizes)
        z = histogram_of_codes(truth_codes[:, cols], sizes)
        mean, var = release_moments(z, target_channel(plan, config, target.attributes))
        sd = np.sqrt(np.clip(var, 0.0, None))
        scores = np.divide(y - mean, sd, out=np.zeros_like(mean), where=sd > 0)
        impossible = (sd <= 0) & (np.abs(y - mean) > 1e-9)
        scores[impossible] = np.inf
        max_abs = float(np.max(np.abs(scores))) if scores.size else 0.0
        out[target.id] = {"z": scores.tolist(), "max_abs_z": max_abs, "flagged": max_abs > z_limit}
    return out


def laplace_counts_test(counts, truth, *, scale: float, z_limit: float = 4.0) -> dict:
    """Declared Laplace counts: ``T = Σ|y_c − z_c|/λ`` ~ Gamma(V, 1), both tails tested.

    For V > 1000 the normal approximation ``(T − V)/√V`` is used (§8.3).
    """
    counts = np.asarray(counts, dtype=float)
    truth = np.asarray(truth, dtype=float)
    cells = counts.size
    statistic = float(np.abs(counts - truth).sum() / scale)
    if cells > NORMAL_APPROXIMATION_CELLS:
        norm = optional("scipy.stats", extra="dp").norm
        standard = (statistic - cells) / math.sqrt(cells)
        lower, upper = float(norm.cdf(standard)), float(norm.sf(standard))
    else:
        special = optional("scipy.special", extra="dp")
        lower = float(special.gammainc(cells, statistic))
        upper = float(special.gammaincc(cells, statistic))
    limit = tail_threshold(z_limit)
    return {
        "T": statistic,
        "cells": cells,
        "lower": lower,
        "upper": upper,
        "flagged": lower < limit or upper < limit,
    }


def parse_counts_declaration(declaration, config: DPConfig, budget) -> dict:
    """Validate a declared-counts declaration (§8.2, §12) against a level's budget.

    ``{"mechanism": "laplace", "targets": {"<target id>": "<ε_t>", ...},
    "postprocessing": "raw" | "clamp_rescale"}``: one ε_t > 0 per workload target,
    ``Σ ε_t ≤ B``. Returns ``{"epsilons": {id: Fraction}, "total": Fraction,
    "postprocessing": str}``.

    Examples
    --------
    >>> from fractions import Fraction
    >>> from scoring.dp._examples import toy_config
    >>> parse_counts_declaration({"mechanism": "laplace",
    ...     "targets": {"gender_age": "0.7", "gender": "0.5"}}, toy_config(), Fraction(1))
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: Declared epsilons sum to 1.2, above the level's budget 1
    """
    if (
        not isinstance(declaration, dict)
        or declaration.get("mechanism", "laplace") != "laplace"
        or not isinstance(declaration.get("targets"), dict)
    ):
        raise DPError("dp.declaration.not_object")
    targets = [t.id for t in config.workload]
    for key in declaration["targets"]:
        if key not in targets:
            raise DPError(
                "dp.declaration.unknown_target", target=clip(key), targets=", ".join(targets)
            )
    epsilons = {}
    for key in targets:
        if key not in declaration["targets"]:
            raise DPError("dp.declaration.missing_target", target=key)
        epsilons[key] = parse_epsilon(declaration["targets"][key])
    total = sum(epsilons.values(), Fraction(0))
    budget = Fraction(budget)
    if total > budget:
        raise DPError(
            "dp.declaration.over_budget", total=exact_text(total), budget=exact_text(budget)
        )
    mode = declaration.get("postprocessing", "raw")
    if mode not in ("raw", "clamp_rescale"):
        raise DPError("dp.declaration.postprocessing", value=clip(mode))
    return {"epsilons": epsilons, "total": total, "postprocessing": mode}
