"""A release declaration (spec §7.3): its groups, their ρ and ε, and the exact charge (§3.3).

:func:`parse_release_declaration` checks a team's (or the baselines') declaration against
the round and returns the :class:`ReleasePlan` that the mechanism
(:mod:`scoring.dp.pk.mechanism`) draws with and the channel (:mod:`scoring.dp.pk.channel`)
describes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scoring.dp.config import DPConfig
from scoring.dp.errors import DPError
from scoring.dp.exact import ceil_nano, exact_text, parse_epsilon
from scoring.dp.pk.equations import epsilon_from_rho, k_of, rho_from_epsilon
from scoring.messages import clip
from scoring.numbers import number_of


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
    try:  # text by the number rule of the tables (float() reads "1_0", "٠.٥")
        rho = number_of(value) if isinstance(value, str) else float(value)
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
    entries = _declared_groups(declaration)
    workload = config.workload_attributes
    owner: dict[str, int] = {}  # attribute -> its group's number
    groups = [
        _parse_group(number, entry, config, owner) for number, entry in enumerate(entries, start=1)
    ]
    for name in workload:
        if name not in owner:
            raise DPError("dp.release.no_group", attribute=name)
    charge = _charge(groups)
    if charge <= 0:
        raise DPError("dp.release.zero")
    epsilon = math.fsum(g.epsilon for g in groups)
    return ReleasePlan(tuple(groups), workload, epsilon, charge)


def _declared_groups(declaration: Any) -> list:
    """The declaration's list of groups, once its shape and mechanism are checked."""
    if not isinstance(declaration, dict) or not isinstance(declaration.get("groups"), list):
        raise DPError("dp.release.not_object")
    mechanism = declaration.get("mechanism", "pk_anonymization")
    if mechanism != "pk_anonymization":
        raise DPError("dp.release.mechanism", mechanism=clip(mechanism))
    return declaration["groups"]


def _parse_group(number: int, entry: Any, config: DPConfig, owner: dict[str, int]) -> ReleaseGroup:
    """Group ``number`` (1-based): its workload attributes, each in no earlier group (recorded
    in ``owner``), and exactly one of ρ and ε."""
    names = _group_attributes(number, entry, config.workload_attributes, owner)
    has_rho, has_epsilon = "rho" in entry, "epsilon" in entry
    if has_rho and has_epsilon:
        raise DPError("dp.release.both", group=number)
    if not has_rho and not has_epsilon:
        raise DPError("dp.release.neither", group=number)
    attributes = config.in_round_order(names)
    sizes = config.domain_sizes(attributes)
    size = math.prod(sizes)
    if has_epsilon:
        epsilon_exact = _group_epsilon(number, entry["epsilon"])
        rho = rho_from_epsilon(float(epsilon_exact), size)
        return ReleaseGroup(attributes, sizes, rho, float(epsilon_exact), epsilon_exact)
    rho = parse_rho(entry["rho"])
    return ReleaseGroup(attributes, sizes, rho, epsilon_from_rho(rho, size), None)


def _group_attributes(
    number: int, entry: Any, workload: tuple[str, ...], owner: dict[str, int]
) -> list[str]:
    """The attributes group ``number`` names (one name may be given as text)."""
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
            raise DPError("dp.release.two_groups", attribute=name, first=owner[name], second=number)
        owner[name] = number
    return names


def _group_epsilon(number: int, value: Any) -> Fraction:
    """The exact ε a group declares, ≥ 0 (a negative one is named with its group)."""
    try:
        return parse_epsilon(value, positive=False)
    except DPError as error:
        if error.code != "dp.epsilon.not_positive":
            raise
        raise DPError("dp.release.epsilon_negative", group=number, epsilon=clip(value)) from None


def _charge(groups: list[ReleaseGroup]) -> Fraction:
    """Σ ε_g exactly over the ε-declared groups, plus eq. (6) over the ρ-declared ones
    rounded up to a multiple of 10⁻⁹."""
    exact_sum = sum(
        (g.declared_epsilon for g in groups if g.declared_epsilon is not None), Fraction(0)
    )
    rho_epsilon = [g.epsilon for g in groups if g.declared_epsilon is None]
    return exact_sum + (ceil_nano(math.fsum(rho_epsilon)) if rho_epsilon else Fraction(0))


def per_attribute_plan(config: DPConfig, rho: float) -> ReleasePlan:
    """The baselines' mechanism: one group per workload attribute, all with the same ρ."""
    groups = [{"attributes": [a], "rho": rho} for a in config.workload_attributes]
    return parse_release_declaration({"groups": groups}, config)
