"""The paper's baselines and crossing points (spec dp-round.md §9, Y 表 5 and 表 6).

For a level ε, on the hidden table (charged to nobody):

* **BT, BR**: per-attribute Pk-anonymization with one equal ρ (``rho_rule`` ``exact``
  solves eq. 6, ``paper_linear`` is ε/Σ V_w), T trials from ``default_rng(seed)``, each
  trial measured, then aggregated over trials (``median_of_measures`` by default).
* **IT_X**: L2 is the exact RMS ``X·√(2V)·Δ/ε``; ρ_s is simulated with common random
  numbers (one set of T standard Laplace vectors, scaled by λ for every X).
* **prior**: ŷ = N/V_S per cell (ρ_s = 0).
* **Crossings X\\***: L2 ``⌊min(BT, BR)/(√(2V)·Δ/ε)⌋ + 1`` (exact); ρ_s the smallest X
  whose simulated ρ_s falls below max(BT, BR) (statistical).

Targets of a workload are measured one by one and averaged (§4); IT_X is defined for
X ≥ K (one histogram query per target).

Examples
--------
>>> import math
>>> l2_crossing(1430, cells=[14], sensitivity=2, epsilon=0.1)
14
>>> [l2_crossing(b, cells=[14], sensitivity=2, epsilon=e) for b, e in ((959, 1.0), (287, 4.0))]
[91, 109]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from scoring.dp.config import DPConfig
from scoring.dp.data import table_codes, true_histograms
from scoring.dp.estimators import reconstruct_many, release_histograms
from scoring.dp.laplace import it_rms_l2
from scoring.dp.pk import (
    Channel,
    equal_rho,
    paper_linear_rho,
    per_attribute_plan,
    run_pk,
    target_channel,
)
from scoring.dp.utility import l2, l2_rows, spearman_rows

# Above this many rank computations (cells × trials × x_max) the ρ_s crossing is found by
# bisection on X (the simulated curve falls with X) instead of scanning every X.
SCAN_LIMIT = 5_000_000


def baseline_rho(config: DPConfig, epsilon: float, rule: str | None = None) -> float:
    """The baselines' equal ρ over the workload attributes for a level's ε."""
    sizes = config.domain_sizes(config.workload_attributes)
    rule = rule or config.baselines.rho_rule
    if rule == "paper_linear":
        return paper_linear_rho(epsilon, sizes)
    return equal_rho(epsilon, sizes)


def expected_bt_l2(truth, channel: Channel) -> float:
    """``L2(zA, z)``: the expected-histogram L2 of BT (deterministic, §3.6)."""
    truth = np.asarray(truth, dtype=float)
    return l2(channel.apply(truth), truth)


def l2_crossing(
    best: float, *, cells: Sequence[int], sensitivity: float, epsilon: float, targets: int = 1
) -> int:
    """表 6's L2 column: the first X whose IT_X RMS L2 exceeds ``best`` (at least K)."""
    unit = float(
        np.mean([it_rms_l2(1, cells=v, sensitivity=sensitivity, epsilon=epsilon) for v in cells])
    )
    return max(targets, math.floor(best / unit) + 1)


def _aggregate(values: np.ndarray, how: str) -> float:
    return float(np.mean(values) if how == "mean_of_measures" else np.median(values))


def it_spearman_curve(
    truths: Sequence[np.ndarray],
    noises: Sequence[np.ndarray],
    *,
    sensitivity: float,
    epsilon: float,
    aggregate: str = "median_of_measures",
) -> Callable[[int], float]:
    """ρ_s of IT_X as a function of X, with common random numbers.

    ``noises[s]`` is a (trials × V_S) array of standard Laplace draws for target s;
    IT_X's answer is ``z + X·Δ/ε · noise``; the result is the mean over targets of the
    aggregate over trials (the per-cell median of answers for ``measure_of_medians``).
    """

    def value(x: int) -> float:
        scale = x * sensitivity / float(epsilon)
        per_target = []
        for truth, noise in zip(truths, noises, strict=True):
            answers = truth + scale * noise
            if aggregate == "measure_of_medians":
                per_target.append(float(spearman_rows(np.median(answers, axis=0), truth)[0]))
            else:
                per_target.append(_aggregate(spearman_rows(answers, truth), aggregate))
        return float(np.mean(per_target))

    return value


def rank_crossing(
    curve: Callable[[int], float],
    threshold: float,
    *,
    x_min: int = 1,
    x_max: int = 1000,
    scan: bool = True,
) -> int | None:
    """The smallest X in [x_min, x_max] with ``curve(X) < threshold`` (None if none).

    With ``scan`` false, bisection (assumes the curve falls with X; it does in
    expectation, and with common random numbers nearly surely at large trial counts).
    """
    if scan:
        for x in range(x_min, x_max + 1):
            if curve(x) < threshold:
                return x
        return None
    if curve(x_max) >= threshold:
        return None
    if curve(x_min) < threshold:
        return x_min
    lo, hi = x_min, x_max  # curve(lo) >= threshold > curve(hi)
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if curve(mid) < threshold:
            hi = mid
        else:
            lo = mid
    return hi


def run_baselines(
    table: pd.DataFrame,
    config: DPConfig,
    epsilon: float,
    *,
    rho_rule: str | None = None,
    trials: int | None = None,
    seed: int | None = None,
) -> dict[str, Any]:
    """Every baseline of §9 at one level, on the hidden ``table`` (seeded, reproducible).

    Returns
    -------
    dict
        ``rho``, ``k``, ``expected_bt_l2``; ``BT``/``BR``/``prior`` each
        ``{"l2", "spearman", "targets": {id: {"l2", "spearman"}}}``; ``IT`` a list of
        ``{"x", "l2", "spearman"}`` for X in ``baselines.it_x`` (X ≥ K); ``crossing``
        ``{"l2": X*, "spearman": X* or None}``.
    """
    settings = config.baselines
    trials = trials or settings.trials
    rng = np.random.default_rng(settings.seed if seed is None else seed)
    epsilon = float(epsilon)
    rho = baseline_rho(config, epsilon, rho_rule)
    plan = per_attribute_plan(config, rho)
    codes = table_codes(table, config, plan.attributes)
    n = codes.shape[0]
    truths = true_histograms(table, config)
    channels = {t.id: target_channel(plan, config, t.attributes) for t in config.workload}
    # The random draws' order is part of the seed's promise: P_K's trials, then IT's noise.
    bt, br = _trusted_and_reconstructed(codes, plan, config, channels, truths, rng, trials)
    result: dict[str, Any] = {
        "epsilon": epsilon,
        "rho": rho,
        "rho_rule": rho_rule or settings.rho_rule,
        "k": plan.k(n),
        "trials": trials,
        "BT": _measure(bt, truths, config),
        "BR": _measure(br, truths, config),
        "prior": _prior(truths, n, config),
        "expected_bt_l2": float(
            np.mean([expected_bt_l2(truths[t.id], channels[t.id]) for t in config.workload])
        ),
    }
    result.update(_it_lines(config, truths, epsilon, rng, trials, result))
    return result


def _trusted_and_reconstructed(codes, plan, config, channels, truths, rng, trials):
    """BT: ``trials`` runs of P_K, each target's histogram as released; BR: the same
    reconstructed through the target's channel."""
    recon = config.reconstruction
    bt = {t.id: np.empty((trials, truths[t.id].size)) for t in config.workload}
    for trial in range(trials):
        released = run_pk(codes, plan, config, rng, shuffle=False)
        histograms = release_histograms(released, plan, config)
        for target in config.workload:
            bt[target.id][trial] = histograms[target.id]
    br = {
        target.id: reconstruct_many(
            bt[target.id],
            channels[target.id],
            tol=recon.tol,
            max_iter=recon.max_iter,
            init=recon.init,
        )[0]
        for target in config.workload
    }
    return bt, br


def _measure(estimates: dict[str, np.ndarray], truths, config: DPConfig) -> dict[str, Any]:
    """L2 and Spearman of the trials' estimates, per target and averaged over the targets,
    aggregated over the trials by ``baselines.aggregate``."""
    aggregate = config.baselines.aggregate
    targets = {}
    for target in config.workload:
        truth, values = truths[target.id], estimates[target.id]
        if aggregate == "measure_of_medians":
            median = np.median(values, axis=0)
            targets[target.id] = {
                "l2": l2(median, truth),
                "spearman": float(spearman_rows(median, truth)[0]),
            }
        else:
            targets[target.id] = {
                "l2": _aggregate(l2_rows(values, truth), aggregate),
                "spearman": _aggregate(spearman_rows(values, truth), aggregate),
            }
    return {
        "l2": float(np.mean([v["l2"] for v in targets.values()])),
        "spearman": float(np.mean([v["spearman"] for v in targets.values()])),
        "targets": targets,
    }


def _prior(truths, n: int, config: DPConfig) -> dict[str, Any]:
    """The uniform histogram (``n`` spread over every cell): knowing nothing."""
    targets = {
        t.id: {
            "l2": l2(np.full(truths[t.id].size, n / truths[t.id].size), truths[t.id]),
            "spearman": 0.0,
        }
        for t in config.workload
    }
    return {
        "l2": float(np.mean([v["l2"] for v in targets.values()])),
        "spearman": 0.0,
        "targets": targets,
    }


def _it_lines(config: DPConfig, truths, epsilon: float, rng, trials: int, result) -> dict:
    """IT_X for X in ``baselines.it_x`` (X ≥ K), and the X at which IT_X crosses the better
    of BT and BR (``result``'s)."""
    settings = config.baselines
    delta = config.sensitivity("histogram")
    sizes = [truths[t.id].size for t in config.workload]
    k_targets = len(config.workload)
    order = [truths[t.id].astype(float) for t in config.workload]
    noises = [rng.laplace(0.0, 1.0, size=(trials, v)) for v in sizes]
    curve = it_spearman_curve(
        order, noises, sensitivity=delta, epsilon=epsilon, aggregate=settings.aggregate
    )
    lines = [
        {
            "x": x,
            "l2": float(
                np.mean([it_rms_l2(x, cells=v, sensitivity=delta, epsilon=epsilon) for v in sizes])
            ),
            "spearman": curve(x),
        }
        for x in settings.it_x
        if x >= k_targets
    ]
    best_l2 = min(result["BT"]["l2"], result["BR"]["l2"])
    best_sp = max(result["BT"]["spearman"], result["BR"]["spearman"])
    scan = sum(sizes) * trials * settings.x_max <= SCAN_LIMIT
    crossing = {
        "l2": l2_crossing(
            best_l2, cells=sizes, sensitivity=delta, epsilon=epsilon, targets=k_targets
        ),
        "spearman": rank_crossing(curve, best_sp, x_min=k_targets, x_max=settings.x_max, scan=scan),
    }
    return {"IT": lines, "crossing": crossing}
