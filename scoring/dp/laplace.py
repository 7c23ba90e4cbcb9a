"""Interactive answers: the Laplace mechanism, Y eq. (4)–(5), and its queries (spec §3.7, §7.2).

An answer is ``true + noise`` with i.i.d. Laplace(Δ/ε_q) noise per cell, returned as
reals (negative values included, no rounding). The platform draws the noise with
OpenDP's Laplace sampler (:func:`opendp_laplace_noise`: OpenDP's float Laplace is a
discretised exact sampler, immune to the floating-point attacks on textbook samplers)
and never from a seed. :func:`seeded_laplace_noise` is the seeded numpy draw of §6, for
baselines, simulations and reproducing the worked examples only.

Examples
--------
>>> import numpy as np
>>> noise = seeded_laplace_noise(6, scale=2.0, rng=np.random.default_rng(7))
>>> (np.array([0, 2, 2, 1, 2, 3]) + noise).round(4).tolist()
[0.5759, 5.1639, 3.6031, -0.5952, 0.9795, 5.7496]
>>> round(it_rms_l2(1, cells=14, sensitivity=2, epsilon=0.1), 2)
105.83
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import pandas as pd

from scoring.dp.config import DPConfig
from scoring.dp.data import (
    column_codes,
    domain_positions,
    histogram_of_codes,
    table_codes,
    target_cells,
)
from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text, parse_epsilon
from scoring.extras import optional
from scoring.messages import clip
from scoring.numbers import parse_numbers


@dataclass(frozen=True)
class Query:
    """A validated histogram, count or mean query."""

    type: str
    attributes: tuple[str, ...]  # histogram: round order; count: the where keys; mean: (column,)
    where: dict[str, str]
    epsilon: Fraction
    sensitivity: int | float  # 2 or 1 for counts; (hi − lo)/N for a mean

    @property
    def scale(self) -> float:
        """λ = Δ/ε (eq. 5 with equality)."""
        return float(Fraction(self.sensitivity) / self.epsilon)

    def cells(self, config: DPConfig) -> list[tuple[str, ...]]:
        """The answer's cells: every cell of a histogram, the one condition of a count."""
        if self.type == "count":
            return [tuple(self.where[a] for a in self.attributes)]
        if self.type == "mean":
            return [(f"mean({self.attributes[0]})",)]
        return target_cells(config, self.attributes)

    def as_dict(self) -> dict[str, Any]:
        """JSON form (ε as exact text)."""
        out = {
            "type": self.type,
            "attributes": list(self.attributes),
            "epsilon": exact_text(self.epsilon),
        }
        if self.type == "count":
            out["where"] = dict(self.where)
        out["sensitivity"] = self.sensitivity
        out["lambda"] = self.scale
        return out


def parse_query(query: Any, config: DPConfig, *, rows: int | None = None) -> Query:
    """Validate a query (§7.2, §12) against the round: type, attributes, where, ε.

    A ``mean`` query (``{"type": "mean", "column": "income", "epsilon": ...}``, §3.9) is
    offered only when the round declares numeric columns and ``mean`` in ``query_types``,
    under ``replace``; its Δ = (hi − lo)/N needs ``rows`` = N.

    Examples
    --------
    >>> from scoring.dp._examples import toy_config
    >>> q = parse_query({"type": "histogram", "attributes": ["age", "gender"], "epsilon": "1/14"},
    ...                 toy_config())
    >>> q.attributes, q.sensitivity, q.scale
    (('gender', 'age'), 2, 28.0)
    >>> parse_query({"type": "count", "where": {"age": "26"}, "epsilon": "1"}, toy_config())
    Traceback (most recent call last):
    ...
    scoring.dp.errors.DPError: Count condition age='26' is not in the domain of 'age'
    """
    if not isinstance(query, dict):
        raise DPError("dp.query.not_object")
    kind = query.get("type", "histogram")
    allowed = [
        t
        for t in config.query_types
        if t != "mean" or (config.numeric and config.adjacency == "replace")
    ]
    if kind not in allowed:
        raise DPError("dp.query.type", type=clip(kind), allowed=", ".join(allowed))
    names = ", ".join(config.attributes)
    where: dict[str, str] = {}
    if kind == "histogram":
        attributes = query.get("attributes")
        if isinstance(attributes, str):
            attributes = [attributes]
        if not isinstance(attributes, list) or not attributes:
            raise DPError("dp.query.no_attributes")
        seen = set()
        for attribute in attributes:
            if not isinstance(attribute, str) or attribute not in config.attributes:
                raise DPError(
                    "dp.query.unknown_attribute", attribute=clip(attribute), attributes=names
                )
            if attribute in seen:
                raise DPError("dp.query.repeated_attribute", attribute=clip(attribute))
            seen.add(attribute)
        ordered = config.in_round_order(attributes)
        cells = math.prod(config.domain_sizes(ordered))
        if cells > config.max_cells:
            raise DPError(
                "dp.query.too_many_cells", cells=f"{cells:,}", limit=f"{config.max_cells:,}"
            )
    elif kind == "mean":
        column = query.get("column")
        if not isinstance(column, str) or column not in config.numeric:
            raise DPError(
                "dp.query.unknown_column", column=clip(column), columns=", ".join(config.numeric)
            )
        if rows is None:
            raise ValueError("a mean query needs rows=N for its sensitivity")
        low, high = config.numeric[column]
        epsilon = parse_epsilon(query.get("epsilon"))
        return Query(kind, (column,), {}, epsilon, (high - low) / rows)
    else:
        raw = query.get("where")
        if not isinstance(raw, dict) or not raw:
            raise DPError("dp.count.empty")
        for attribute, value in raw.items():
            if attribute not in config.attributes:
                raise DPError(
                    "dp.count.unknown_attribute", attribute=clip(attribute), attributes=names
                )
            domain = config.attributes[attribute]
            position = int(domain_positions([str(value).strip()], domain)[0])
            if position < 0:
                raise DPError(
                    "dp.count.not_in_domain", attribute=clip(attribute), value=clip(value)
                )
            where[attribute] = domain[position]  # as the organizer typed it
        ordered = config.in_round_order(where)
    epsilon = parse_epsilon(query.get("epsilon"))
    return Query(kind, ordered, where, epsilon, config.sensitivity(kind))


def query_truth(table: pd.DataFrame, config: DPConfig, query: Query) -> np.ndarray:
    """The exact answer of ``query`` on the hidden table (never shown to teams)."""
    if query.type == "mean":
        low, high = config.numeric[query.attributes[0]]
        values = parse_numbers(table[query.attributes[0]].astype(str).to_numpy(dtype=object))
        return np.array([float(np.clip(values, low, high).mean())])
    if query.type == "histogram":
        codes = table_codes(table, config, query.attributes)
        return histogram_of_codes(codes, config.domain_sizes(query.attributes)).astype(float)
    match = np.ones(len(table), dtype=bool)
    for attribute, value in query.where.items():
        domain = config.attributes[attribute]
        codes = column_codes(table[attribute].to_numpy(dtype=object), domain, column=attribute)
        match &= codes == domain.index(value)
    return np.array([float(match.sum())])


def seeded_laplace_noise(cells: int, *, scale: float, rng: np.random.Generator) -> np.ndarray:
    """``rng.laplace(0, scale, size=cells)``: the reference draw of §6 (simulations only)."""
    return rng.laplace(0.0, scale, size=cells)


def opendp_laplace_noise(cells: int, *, scale: float) -> np.ndarray:
    """Laplace(``scale``) noise per cell from OpenDP's sampler (OS randomness, no seed).

    The platform's answers use this: OpenDP samples the float Laplace exactly on a fine
    grid, so the answer's low bits carry nothing about the true count.
    """
    dp = optional("opendp.prelude", extra="opendp")  # loaded only where answers are drawn
    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
    measurement = dp.m.make_laplace(*space, scale=float(scale))
    return np.asarray(measurement([0.0] * int(cells)), dtype=float)


def opendp_laplace_answer(truth, *, scale: float) -> np.ndarray:
    """``truth + noise`` with OpenDP adding the noise to the true values themselves."""
    dp = optional("opendp.prelude", extra="opendp")
    dp.enable_features("contrib")
    space = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.l1_distance(T=float)
    measurement = dp.m.make_laplace(*space, scale=float(scale))
    return np.asarray(measurement([float(v) for v in np.asarray(truth, dtype=float)]), dtype=float)


def laplace_density(value: float, center: float, scale: float) -> float:
    """Eq. (4): ``exp(−|value − center|/λ) / (2λ)``."""
    return math.exp(-abs(value - center) / scale) / (2 * scale)


def it_rms_l2(x: int, *, cells: int, sensitivity: float, epsilon: float) -> float:
    """RMS L2 of one answer of IT_X: ``X · √(2V) · Δ / ε`` (what 表 5 prints)."""
    return x * math.sqrt(2 * cells) * sensitivity / float(epsilon)


def numeric_ldp(
    values, *, low: float, high: float, epsilon: float, rng: np.random.Generator
) -> np.ndarray:
    """Seed 003's ``Differential_l`` (§3.9): ``clamp(x, lo, hi) + Laplace((hi − lo)/ε)`` per record.

    The range is the round's public one, never the data's. Seeded draws in file order (§6).

    Examples
    --------
    >>> y = numeric_ldp([23, 35, 41, 58, 62], low=0, high=100, epsilon=1.0,
    ...                 rng=np.random.default_rng(7))
    >>> y.round(4).tolist(), round(float(y.mean()), 4)
    ([51.7937, 193.1957, 121.156, -21.7587, 10.9729], 71.0719)
    """
    clamped = np.clip(np.asarray(values, dtype=float), low, high)
    return clamped + rng.laplace(0.0, (high - low) / float(epsilon), size=clamped.size)


def laplace_bound(scale: float, confidence: float) -> float:
    """The error bound ``λ·ln(1/(1 − confidence))`` met with that probability (seed 003).

    Examples
    --------
    >>> round(laplace_bound(100 / (0.1 * 100), 0.95), 4), round(laplace_bound(1000, 0.8), 1)
    (29.9573, 1609.4)
    """
    return scale * math.log(1 / (1 - confidence))
