"""Pk-anonymization (Y eq. 2) with groups of attributes, its ε (eq. 6) and k (eq. 7).

A release declaration partitions the workload attributes into groups; group g keeps
its joint value with probability ρ_g and otherwise draws a uniform joint value (eq. 2
on ``V_g = Π V_w`` cells). The parts, imported from here:

* :mod:`~scoring.dp.pk.equations` — ρ ↔ ε of a group (eq. 6), k (eq. 7), GRR, ρ rules;
* :mod:`~scoring.dp.pk.plan` — a declaration checked into a :class:`ReleasePlan` and its
  exact charge;
* :mod:`~scoring.dp.pk.channel` — the target's channel ``A_S`` (:class:`Channel`), what
  the estimators compute with;
* :mod:`~scoring.dp.pk.mechanism` — the draws (:func:`run_pk`, spec §6) and the released
  table, with :func:`system_generator` for the platform's real releases.
"""

from scoring.dp.pk.channel import Channel, target_channel
from scoring.dp.pk.equations import (
    RHO_MAX,
    epsilon_from_rho,
    equal_rho,
    grr_probabilities,
    k_of,
    paper_linear_rho,
    release_epsilon,
    rho_from_epsilon,
)
from scoring.dp.pk.mechanism import codes_to_table, pk_release, run_pk, system_generator
from scoring.dp.pk.plan import (
    ReleaseGroup,
    ReleasePlan,
    parse_release_declaration,
    parse_rho,
    per_attribute_plan,
)

__all__ = [
    "RHO_MAX",
    "Channel",
    "ReleaseGroup",
    "ReleasePlan",
    "codes_to_table",
    "epsilon_from_rho",
    "equal_rho",
    "grr_probabilities",
    "k_of",
    "paper_linear_rho",
    "parse_release_declaration",
    "parse_rho",
    "per_attribute_plan",
    "pk_release",
    "release_epsilon",
    "rho_from_epsilon",
    "run_pk",
    "system_generator",
    "target_channel",
]
