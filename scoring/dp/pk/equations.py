"""The formulas of Pk-anonymization: ρ ↔ ε of a group (Y eq. 6), k (eq. 7), GRR, and ρ rules.

Pure functions of numbers, shared by the declarations (:mod:`scoring.dp.pk.plan`), the
command line and the baselines.

Examples
--------
>>> round(release_epsilon([0.5, 0.5], [2, 3]), 6), math.log(12) > 2.4849
(2.484907, True)
>>> round(k_of(10, math.log(12)), 4)
1.0625
>>> round(rho_from_epsilon(math.log(12), 6), 6)
0.647059
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

RHO_MAX = float(np.nextafter(1.0, 0.0))  # the largest ρ < 1 in floating point


def rho_from_epsilon(epsilon: float, size: int) -> float:
    """ρ of eq. (2) whose group ε (eq. 6) is ``epsilon`` on ``size`` cells (GRR's keep rule).

    ``ρ = (e^ε − 1)/(V − 1 + e^ε)``.
    """
    grow = math.expm1(float(epsilon))
    return grow / (size + grow)


def epsilon_from_rho(rho: float, size: int) -> float:
    """ε of one group, eq. (6): ``ln((1 + (V−1)ρ)/(1 − ρ))``."""
    if rho >= 1:
        return math.inf
    return math.log1p(size * rho / (1.0 - rho))


def release_epsilon(rhos: Sequence[float], sizes: Sequence[int]) -> float:
    """Eq. (6): the ε of a release with groups of ``sizes`` cells and keep rates ``rhos``."""
    return math.fsum(epsilon_from_rho(r, v) for r, v in zip(rhos, sizes, strict=True))


def k_of(n: int, epsilon: float) -> float:
    """Eq. (7): ``k = 1 + (N − 1)·e^{−2ε}`` (information only)."""
    return 1.0 + (n - 1) * math.exp(-2.0 * float(epsilon))


def grr_probabilities(epsilon: float, size: int) -> tuple[float, float]:
    """GRR (seed 003): (Pr[keep x], Pr[each other value]); ``ln(keep/other) = ε``.

    Examples
    --------
    >>> [round(p, 4) for p in grr_probabilities(1.0, 3)]
    [0.5761, 0.2119]
    """
    rho = rho_from_epsilon(epsilon, size)
    other = (1 - rho) / size
    return rho + other, other


def paper_linear_rho(epsilon: float, sizes: Sequence[int]) -> float:
    """Y's printed ρ (表 2): ``ε / Σ_w V_w`` (the first-order expansion of eq. 6), below 1."""
    return min(float(epsilon) / sum(sizes), RHO_MAX)


def equal_rho(epsilon: float, sizes: Sequence[int]) -> float:
    """The one ρ that, on per-attribute groups of ``sizes``, makes eq. (6) equal ``epsilon``.

    Examples
    --------
    >>> [round(equal_rho(e, [2, 7]), 4) for e in (0.1, 1.0, 4.0)]
    [0.0114, 0.1335, 0.6243]
    """
    lo, hi = 0.0, 1.0
    for _ in range(200):  # bisection to machine precision (eq. 6 is increasing in ρ)
        mid = (lo + hi) / 2
        if release_epsilon([mid] * len(sizes), sizes) < epsilon:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-17:
            break
    # Past ε ≈ 37 per attribute no float ρ < 1 reaches ε: the largest one is returned.
    return min((lo + hi) / 2, RHO_MAX)
