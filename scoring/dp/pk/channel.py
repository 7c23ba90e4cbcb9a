"""The channel ``A_S`` of a target under a release plan (§3.4), as Kronecker factors.

A target S sees, through group g, eq. (2) with the group's ρ_g on ``V_{S∩g}`` cells, so
``A_S`` is a Kronecker product of ``a·I + b·J`` factors: :class:`Channel` applies it (and
its inverse, and its element-wise square) in O(V_S) per group, without building the
V_S × V_S matrix. The estimators and the plausibility tests compute with it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from scoring.dp.config import DPConfig
from scoring.dp.pk.plan import ReleasePlan

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
