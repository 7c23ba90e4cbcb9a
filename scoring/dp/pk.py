"""Pk-anonymization (Y eq. 2) with groups of attributes, its ε (eq. 6) and k (eq. 7).

A release declaration partitions the workload attributes into groups; group g keeps
its joint value with probability ρ_g and otherwise draws a uniform joint value (eq. 2
on ``V_g = Π V_w`` cells). A target S sees, through group g, eq. (2) with the same ρ_g
on ``V_{S∩g}`` cells (§3.4), so the target's channel ``A_S`` is a Kronecker product of
``a·I + b·J`` factors; :class:`Channel` applies it (and its inverse, and its element-wise
square) in O(V_S) per group, without building the V_S × V_S matrix.

Randomness is an argument: a seeded :class:`numpy.random.Generator` for simulations and
tests, :func:`system_generator` (fresh OS entropy, never stored) for the platform's real
releases.

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
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from scoring.dp.config import DPConfig
from scoring.dp.data import table_codes
from scoring.dp.errors import DPError
from scoring.dp.exact import ceil_nano, exact_text, parse_epsilon
from scoring.messages import clip

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


@dataclass(frozen=True)
class ReleaseGroup:
    """One group of a declaration: its attributes (round order), sizes, ρ and ε."""

    attributes: tuple[str, ...]
    sizes: tuple[int, ...]
    rho: float
    epsilon: float
    declared_epsilon: Fraction | None  # the exact ε when the group was declared by ε

    @property
    def size(self) -> int:
        """``V_g``: the number of joint cells of the group."""
        return math.prod(self.sizes)


@dataclass(frozen=True)
class ReleasePlan:
    """A validated Pk-anonymization declaration: groups, ε (eq. 6) and the exact charge."""

    groups: tuple[ReleaseGroup, ...]
    attributes: tuple[str, ...]  # the released attributes, in round order
    epsilon: float
    charge: Fraction

    @property
    def rhos(self) -> tuple[float, ...]:
        """ρ_g of every group, in declaration order."""
        return tuple(g.rho for g in self.groups)

    def k(self, n: int) -> float:
        """Eq. (7) for a table of ``n`` rows."""
        return k_of(n, self.epsilon)

    def as_dict(self, n: int | None = None) -> dict[str, Any]:
        """JSON form: groups with ρ and ε, the total ε, the charge (exact text) and k."""
        out = {
            "mechanism": "pk_anonymization",
            "groups": [
                {
                    "attributes": list(g.attributes),
                    "cells": g.size,
                    "rho": g.rho,
                    "epsilon": g.epsilon,
                }
                for g in self.groups
            ],
            "epsilon": self.epsilon,
            "charge": exact_text(self.charge),
        }
        if n is not None:
            out["k"] = self.k(n)
        return out


def parse_rho(value: Any) -> float:
    """A ρ in [0, 1) from a number or numeric text, or the §12 message."""
    if isinstance(value, bool):
        raise DPError("dp.release.rho_not_number", rho=clip(value))
    try:
        rho = float(value)
    except (TypeError, ValueError):
        raise DPError("dp.release.rho_not_number", rho=clip(value)) from None
    if not math.isfinite(rho):
        raise DPError("dp.release.rho_not_number", rho=clip(value))
    if rho >= 1:
        raise DPError("dp.release.rho_too_large", rho=clip(value))
    if rho < 0:
        raise DPError("dp.release.rho_negative", rho=clip(value))
    return rho


def parse_release_declaration(declaration: Any, config: DPConfig) -> ReleasePlan:
    """Validate a release declaration (§7.3, §12) and compute its ε and charge (§3.3).

    Parameters
    ----------
    declaration : dict
        ``{"mechanism": "pk_anonymization", "groups": [{"attributes": [...],
        "epsilon": "0.3"} | {"attributes": [...], "rho": 0.5}, ...]}``; the groups must
        partition the workload attributes exactly.
    config : DPConfig
        The round.

    Returns
    -------
    ReleasePlan
        The charge is Σ ε_g exactly for ε-declared groups, plus eq. (6) rounded up to a
        multiple of 10⁻⁹ over the ρ-declared groups.

    Examples
    --------
    >>> from scoring.dp._examples import toy_config
    >>> plan = parse_release_declaration(
    ...     {"groups": [{"attributes": ["gender"], "rho": 0.5}, {"attributes": ["age"], "rho": 0.5}]},
    ...     toy_config())
    >>> exact_text(plan.charge), round(plan.epsilon, 6), plan.k(10)
    ('2.48490665', 2.484907, 1.0625)
    >>> parse_release_declaration({"groups": [{"attributes": ["gender"], "epsilon": "1"}]},
    ...     toy_config())
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: Attribute 'age' is in no group: a column released without randomization has epsilon = ∞
    """
    if not isinstance(declaration, dict) or not isinstance(declaration.get("groups"), list):
        raise DPError("dp.release.not_object")
    mechanism = declaration.get("mechanism", "pk_anonymization")
    if mechanism != "pk_anonymization":
        raise DPError("dp.release.mechanism", mechanism=clip(mechanism))
    workload = config.workload_attributes
    owner: dict[str, int] = {}
    groups = []
    exact_sum, rho_epsilon = Fraction(0), []
    for number, entry in enumerate(declaration["groups"], start=1):
        if not isinstance(entry, dict):
            raise DPError("dp.release.empty_group", group=number)
        names = entry.get("attributes")
        if isinstance(names, str):
            names = [names]
        if not isinstance(names, list) or not names:
            raise DPError("dp.release.empty_group", group=number)
        for name in names:
            if not isinstance(name, str) or name not in workload:
                raise DPError(
                    "dp.release.unknown_attribute",
                    group=number,
                    attribute=clip(name),
                    attributes=", ".join(workload),
                )
            if name in owner:
                raise DPError(
                    "dp.release.two_groups", attribute=name, first=owner[name], second=number
                )
            owner[name] = number
        has_rho, has_epsilon = "rho" in entry, "epsilon" in entry
        if has_rho and has_epsilon:
            raise DPError("dp.release.both", group=number)
        if not has_rho and not has_epsilon:
            raise DPError("dp.release.neither", group=number)
        attributes = config.in_round_order(names)
        sizes = config.domain_sizes(attributes)
        size = math.prod(sizes)
        if has_epsilon:
            try:
                epsilon_exact = parse_epsilon(entry["epsilon"], positive=False)
            except DPError as error:
                if error.code != "dp.epsilon.not_positive":
                    raise
                raise DPError(
                    "dp.release.epsilon_negative", group=number, epsilon=clip(entry["epsilon"])
                ) from None
            rho = rho_from_epsilon(float(epsilon_exact), size)
            exact_sum += epsilon_exact
            groups.append(ReleaseGroup(attributes, sizes, rho, float(epsilon_exact), epsilon_exact))
        else:
            rho = parse_rho(entry["rho"])
            epsilon = epsilon_from_rho(rho, size)
            rho_epsilon.append(epsilon)
            groups.append(ReleaseGroup(attributes, sizes, rho, epsilon, None))
    for name in workload:
        if name not in owner:
            raise DPError("dp.release.no_group", attribute=name)
    charge = exact_sum + (ceil_nano(math.fsum(rho_epsilon)) if rho_epsilon else Fraction(0))
    if charge <= 0:
        raise DPError("dp.release.zero")
    epsilon = math.fsum(g.epsilon for g in groups)
    return ReleasePlan(tuple(groups), workload, epsilon, charge)


def per_attribute_plan(config: DPConfig, rho: float) -> ReleasePlan:
    """The baselines' mechanism: one group per workload attribute, all with the same ρ."""
    groups = [{"attributes": [a], "rho": rho} for a in config.workload_attributes]
    return parse_release_declaration({"groups": groups}, config)


# Targets with at most this many cells keep A_S as a dense matrix (14 cells: 196 floats).
DENSE_CELLS = 512


class Channel:
    """The channel ``A_S`` of a target under a release plan (§3.4), as Kronecker factors.

    ``A_S`` is symmetric, so ``z A_S = A_S z``; every method takes a vector (or a stack
    of vectors, cells last) of length ``V_S`` in row-major cell order.
    """

    def __init__(self, sizes: Sequence[int], factors: Sequence[tuple[tuple[int, ...], int, float]]):
        self.sizes = tuple(int(s) for s in sizes)
        self.factors = tuple(factors)  # (axes of S, V_{S∩g}, ρ_g)
        self.cells = math.prod(self.sizes)
        self._dense: np.ndarray | None = None
        if self.cells <= DENSE_CELLS:  # a matrix product beats the reshapes on small targets
            self._dense = self._apply(np.eye(self.cells), self._coefficients())

    def _apply(self, z: np.ndarray, coefficients) -> np.ndarray:
        z = np.asarray(z, dtype=float)
        lead = z.shape[:-1]
        out = z.reshape(*lead, *self.sizes).copy()
        offset = len(lead)
        for (axes, _size, _rho), (a, b) in zip(self.factors, coefficients, strict=True):
            shifted = tuple(offset + ax for ax in axes)
            total = out.sum(axis=shifted, keepdims=True)
            out *= a  # in place: the same products and sums as a·out + b·total, fewer passes
            out += b * total
        return out.reshape(*lead, self.cells)

    def _coefficients(self):
        return [(rho, (1 - rho) / size) for _, size, rho in self.factors]

    def apply(self, z) -> np.ndarray:
        """``z A_S`` (= ``A_S z``)."""
        if self._dense is not None:
            return np.asarray(z, dtype=float) @ self._dense
        return self._apply(z, self._coefficients())

    def apply_squared(self, z) -> np.ndarray:
        """``z (A_S ∘ A_S)``: the element-wise square of the channel (for variances)."""
        coefficients = []
        for _, size, rho in self.factors:
            off = (1 - rho) / size
            coefficients.append(((rho + off) ** 2 - off**2, off**2))
        return self._apply(z, coefficients)

    def apply_inverse(self, y) -> np.ndarray:
        """``y A_S⁻¹`` with ``A_w⁻¹ = (1/ρ) I − (1−ρ)/(ρV) J`` (needs every ρ > 0)."""
        return self._apply(
            y, [(1 / rho, -(1 - rho) / (rho * size)) for _, size, rho in self.factors]
        )

    def dense(self) -> np.ndarray:
        """The V_S × V_S matrix (small targets only: tests and examples)."""
        return self._apply(np.eye(self.cells), self._coefficients())


def target_channel(plan: ReleasePlan, config: DPConfig, attributes) -> Channel:
    """``A_S`` of the target over ``attributes`` (round order) under ``plan``."""
    attributes = tuple(attributes)
    position = {a: k for k, a in enumerate(attributes)}
    factors = []
    for group in plan.groups:
        axes = tuple(position[a] for a in group.attributes if a in position)
        if axes:
            size = math.prod(config.domain_sizes(attributes[ax] for ax in axes))
            factors.append((axes, size, group.rho))
    return Channel(config.domain_sizes(attributes), factors)


def system_generator() -> np.random.Generator:
    """A generator seeded from fresh OS entropy, for the platform's real releases.

    Its state is never stored or derived from anything: two calls are independent, and
    nobody can regenerate a release. Seeded generators are for simulations only.
    """
    return np.random.default_rng(np.random.SeedSequence())


def run_pk(
    codes: np.ndarray,
    plan: ReleasePlan,
    config: DPConfig,
    rng: np.random.Generator,
    *,
    shuffle: bool = True,
) -> np.ndarray:
    """Randomize ``codes`` (N × released attributes, round order) by eq. (2) per group.

    The draws follow spec §6 exactly: ``U = rng.random((N, G))``; then for each group
    ``R_g = rng.integers(0, V_g, size=N)``; a record keeps its group values iff
    ``U[i, g] < ρ_g``, else takes joint cell ``R_g[i]`` (row-major); finally
    ``perm = rng.permutation(N)`` shuffles the rows (not drawn when ``shuffle`` is false,
    which the baselines use: a histogram does not depend on row order). Every other draw
    is made even when unused.
    """
    codes = np.asarray(codes, dtype=np.int64)
    n = codes.shape[0]
    column = {a: k for k, a in enumerate(plan.attributes)}
    uniform = rng.random(size=(n, len(plan.groups)))
    out = codes.copy()
    for g, group in enumerate(plan.groups):
        replacement = rng.integers(0, group.size, size=n)
        redraw = ~(uniform[:, g] < group.rho)
        values = np.unravel_index(replacement[redraw], group.sizes)
        for attribute, value in zip(group.attributes, values, strict=True):
            out[redraw, column[attribute]] = value
    if shuffle:
        out = out[rng.permutation(n)]
    return out


def codes_to_table(codes: np.ndarray, config: DPConfig, attributes) -> pd.DataFrame:
    """Codes (N × attributes) back to a DataFrame of domain values."""
    return pd.DataFrame(
        {
            a: np.asarray(config.attributes[a], dtype=object)[codes[:, k]]
            for k, a in enumerate(attributes)
        }
    )


def pk_release(
    table: pd.DataFrame,
    config: DPConfig,
    plan: ReleasePlan,
    rng: np.random.Generator,
    *,
    shuffle: bool = True,
) -> pd.DataFrame:
    """A Pk-anonymized ``release.csv`` table of ``table``: workload attributes, N rows."""
    codes = table_codes(table, config, plan.attributes)
    return codes_to_table(
        run_pk(codes, plan, config, rng, shuffle=shuffle), config, plan.attributes
    )
