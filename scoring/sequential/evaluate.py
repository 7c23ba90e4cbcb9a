"""Everything the platform reports on a release sequence, and the ranking inputs (§6–§11).

Examples
--------
>>> from scoring.sequential._examples import headline
>>> result = evaluate_sequence(*headline())
>>> result.summary["MINV"], round(result.summary["RN_max"], 6), result.summary["RN_over"]
(2, 0.666667, 1)
>>> risk_per_person_csv(result).splitlines()[1]
'Bob,1,2,dyspepsia,1;2,0.6666666666666666,0.5,1.0,0.5'
>>> passes_gates(result.summary, result.config), safety_key(result.summary, result.config)[0]
(True, 0.6666666666666666)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pandas as pd

from scoring.sequential.config import SeqConfig
from scoring.sequential.master import Master
from scoring.sequential.release import Release
from scoring.sequential.risk import Risk, risk
from scoring.sequential.structure import Structure, structure
from scoring.sequential.utility import utility

PER_PERSON_COLUMNS = [
    "pid",
    "lsf",
    "lsb",
    "sa",
    "groups_per_release",
    "P_N_true",
    "P_A_true",
    "MAP_N",
    "MAP_A",
]
LEADERBOARD_COLUMNS = [
    "MU_min",
    "MINV",
    "RN_max",
    "RN_mean",
    "RA_max",
    "RA_mean",
    "RN_over",
    "MAP_N",
    "MAP_A",
    "IL",
    "CF_ratio",
    "SUP",
    "TMP",
]
"""Spec §11's columns after validity (all lower is better for the publisher)."""


@dataclass(frozen=True, eq=False)
class SequenceResult:
    """``summary`` (JSON-ready numbers), the per-person table, and the parts behind them."""

    summary: dict
    per_person: pd.DataFrame
    structure: Structure
    risk: Risk
    config: SeqConfig


def evaluate_sequence(master: Master, releases: list[Release]) -> SequenceResult:
    """Structure (§6), risk (§7–§8) and utility (§9) of ``T*(1..n)``, ``n = len(releases)``.

    ``summary`` holds ``n, MU (list), MU_min, MINV, m_unique, m_invariant, violations``
    (English texts; ``structure.violations`` has the codes), ``persons, RN_max, RN_mean,
    RA_max, RA_mean, RN_over, MAP_N, MAP_A, IL_per_release, IL, CF, CF_ratio, SUP, TMP``.
    """
    config = master.config
    checks = structure(releases)
    risks = risk(master, releases)
    summary = {
        "n": len(releases),
        "m": config.m,
        "MU": checks.mu,
        "MU_min": checks.mu_min,
        "MINV": checks.minv,
        "m_unique": checks.is_m_unique(config.m),
        "m_invariant": checks.is_m_invariant(config.m),
        "violations": checks.violation_texts(),
        **risks.summary,
        **utility(master, releases),
    }
    return SequenceResult(summary, risks.per_person[PER_PERSON_COLUMNS], checks, risks, config)


def risk_per_person_csv(result: SequenceResult) -> str:
    """The per-person table (``risk_per_person.csv``, spec §7.4) as CSV text."""
    return result.per_person.to_csv(index=False, lineterminator="\n")


def _gates(config: SeqConfig) -> list[tuple[str, Callable[[dict], bool]]]:
    """Spec §11 step 1's gates in order: the ``require`` gate, then each utility gate."""
    gates: list[tuple[str, Callable[[dict], bool]]] = []
    if config.require == "m-invariant":
        gates.append((f"m-invariant (MINV ≥ {config.m})", lambda s: s["MINV"] >= config.m))
    if config.require == "m-unique":
        gates.append((f"m-unique (MU ≥ {config.m})", lambda s: s["MU_min"] >= config.m))
    for metric, bound in config.utility_gates.items():
        gates.append((f"{metric} ≤ {bound:g}", lambda s, m=metric, b=bound: s[m] <= b))
    return gates


def gate_names(config: SeqConfig) -> list[str]:
    """The gates' names (``"m-invariant (MINV ≥ 2)"``, ``"IL ≤ 0.5"``); ``[]``: none."""
    return [name for name, _passes in _gates(config)]


def gate_checks(summary: dict, config: SeqConfig) -> list[tuple[str, bool]]:
    """Each gate's name with whether ``summary`` passes it, in ``gate_names``' order."""
    return [(name, passes(summary)) for name, passes in _gates(config)]


def gate_failures(summary: dict, config: SeqConfig) -> tuple[str, ...]:
    """The gates ``summary`` fails, each by its key as a leaderboard shows it (``m-invariant``,
    ``m-unique`` or a utility metric such as ``IL``); ``()``: it passes them all."""
    return tuple(name.split(" ")[0] for name, passed in gate_checks(summary, config) if not passed)


def passes_gates(summary: dict, config: SeqConfig, *, complete: bool = True) -> bool:
    """Spec §11 step 1: the ``require`` gate, the utility gates, and completeness."""
    return complete and all(passed for _name, passed in gate_checks(summary, config))


def safety_key(
    summary: dict, config: SeqConfig, *, attack_best: float | None = None
) -> tuple[float, float, float]:
    """Spec §11 steps 2–3: (safety, RN_mean, IL), lower is better.

    Safety is ``RN_max`` without an attack phase; with one, the highest accuracy any
    attacker reached on the sequence: the teams' best (``attack_best``), MAP_N, MAP_A.
    """
    if config.attack_phase:
        safety = max(attack_best or 0.0, summary["MAP_N"], summary["MAP_A"])
    else:
        safety = summary["RN_max"]
    return (float(safety), float(summary["RN_mean"]), float(summary["IL"]))


def ranking_key(
    summary: dict, config: SeqConfig, *, complete: bool = True, attack_best: float | None = None
) -> tuple:
    """Sort key of the anonymization ranking: gated-out sequences last, then :func:`safety_key`."""
    gated_out = not passes_gates(summary, config, complete=complete)
    return (gated_out, *safety_key(summary, config, attack_best=attack_best))
