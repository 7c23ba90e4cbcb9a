"""Declared-upload mode (spec dp-round.md §8.2–8.3): a team's own randomized table or noisy
counts, checked against the declaration, estimated by the platform's own estimators, and
tested for plausibility (flagged, never rejected).

Two forms:

* a **table**: ``release.csv`` (workload attributes in round order, N rows, row i derived
  from original row i) with ``{"mechanism": "pk_anonymization", "groups": [...],
  "estimator": "BT"|"BR"|"BI"}`` (ε recomputed by eq. 6, ≤ B);
* **counts**: ``counts.csv`` in the estimate format holding the raw noisy counts, with
  ``{"mechanism": "laplace", "targets": {id: ε_t}, "postprocessing": "raw"|"clamp_rescale"}``
  (Σ ε_t ≤ B, Δ of §3.7).

Examples
--------
>>> from scoring.dp._examples import toy_config, toy_table
>>> from scoring.tables import read_table
>>> config = toy_config()
>>> text = "target,gender,age,count\\ngender,F,,4\\ngender,M,,6\\n" + "".join(
...     f"gender_age,{g},{a},1\\n" for g in "FM" for a in ("<=17", "18-24", "25-34"))
>>> declared = check_declared(text.encode(), {"mechanism": "laplace", "targets":
...     {"gender": "0.5", "gender_age": "0.5"}}, config, budget=Fraction(1), rows=10)
>>> declared.method, str(declared.epsilon), declared.counts["gender"].tolist()
('declared Laplace', '1', [4.0, 6.0])
>>> check_declared(text.encode(), {"mechanism": "laplace", "targets": {"gender": "1",
...     "gender_age": "0.2"}}, config, budget=Fraction(1), rows=10)
Traceback (most recent call last):
...
scoring.dp.errors.DPError: Declared epsilons sum to 1.2, above the level's budget 1
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from scoring.bounded_json import loads_bounded
from scoring.dp.config import DPConfig
from scoring.dp.data import table_codes, true_histograms, validate_release_table
from scoring.dp.errors import DPError
from scoring.dp.estimators import ESTIMATORS, estimate_from_release, read_estimate
from scoring.dp.exact import format_epsilon
from scoring.dp.pk import ReleasePlan, parse_release_declaration
from scoring.dp.plausibility import (
    histogram_test,
    laplace_counts_test,
    parse_counts_declaration,
    retention_test,
)
from scoring.dp.utility import postprocess_counts
from scoring.errors import ConfigError
from scoring.messages import clip
from scoring.tables import read_table

POSTPROCESSING = ("raw", "clamp_rescale")


@dataclass(frozen=True)
class Declared:
    """A checked declared upload: what the platform scores and what it tests."""

    kind: str  # "table" or "counts"
    declaration: dict
    epsilon: Fraction
    counts: dict[str, np.ndarray]  # the scored estimate per target
    method: str
    estimator: str = ""
    plan: ReleasePlan | None = None
    released_codes: np.ndarray | None = None
    raw_counts: dict[str, np.ndarray] = field(default_factory=dict)
    target_epsilons: dict[str, Fraction] = field(default_factory=dict)


def _parse_declaration(raw: Any) -> dict:
    if isinstance(raw, bytes | str):
        try:
            raw = loads_bounded(raw)
        except ConfigError:
            raise DPError("dp.declaration.not_object") from None
    if not isinstance(raw, dict):
        raise DPError("dp.declaration.not_object")
    return raw


def check_declared(
    content: bytes,
    declaration: Any,
    config: DPConfig,
    *,
    budget: Fraction,
    rows: int,
    name: str | None = None,
) -> Declared:
    """Check a declared upload (§8.2, §12) and compute the estimate the platform scores.

    ``name`` is how messages call the file (the name it was uploaded under; by default
    ``release.csv`` or, for noisy counts, ``counts.csv``)."""
    declaration = _parse_declaration(declaration)
    mechanism = declaration.get("mechanism", "pk_anonymization")
    if mechanism == "laplace":
        return _declared_counts(
            content, declaration, config, budget=budget, rows=rows, name=name or "counts.csv"
        )
    if not isinstance(declaration.get("groups"), list):
        raise DPError("dp.declaration.not_object")
    plan = parse_release_declaration(declaration, config)
    if plan.charge > budget:
        raise DPError(
            "dp.release.over_budget",
            cost=format_epsilon(plan.charge),
            budget=format_epsilon(budget),
        )
    estimator = declaration.get("estimator", "BT")
    if estimator not in ESTIMATORS:
        raise DPError("dp.estimator.unknown", estimator=clip(estimator))
    name = name or "release.csv"
    codes = validate_release_table(read_table(content, name=name), config, rows=rows, name=name)
    return Declared(
        kind="table",
        declaration=declaration,
        epsilon=plan.charge,
        counts=estimate_from_release(codes, plan, config, estimator),
        method=estimator,
        estimator=estimator,
        plan=plan,
        released_codes=codes,
    )


def _declared_counts(content, declaration, config, *, budget, rows, name) -> Declared:
    parsed = parse_counts_declaration(declaration, config, budget)  # the §12 rules, one place
    raw = read_estimate(content, config, name=name)
    return Declared(
        kind="counts",
        declaration=declaration,
        epsilon=parsed["total"],
        counts={
            key: postprocess_counts(value, rows, parsed["postprocessing"])
            for key, value in raw.items()
        },
        method="declared Laplace",
        raw_counts=raw,
        target_epsilons=parsed["epsilons"],
    )


def declared_plausibility(declared: Declared, table, config: DPConfig) -> dict:
    """The §8.3 tests against the hidden ``table``: ``{"flagged": bool, ...}``.

    A table: retention per group and the histogram z-scores per target. Counts: the
    Gamma test of ``T = Σ|y − z|/λ`` per target (both tails)."""
    z_limit = config.plausibility_z
    if declared.kind == "table":
        original = table_codes(table, config, declared.plan.attributes)
        retention = retention_test(
            original, declared.released_codes, declared.plan, z_limit=z_limit
        )
        histograms = histogram_test(
            declared.released_codes, original, declared.plan, config, z_limit=z_limit
        )
        flagged = any(r["flagged"] for r in retention) or any(
            h["flagged"] for h in histograms.values()
        )
        return {"flagged": bool(flagged), "retention": retention, "histograms": histograms}
    truths = true_histograms(table, config)
    tests = {}
    for target in config.workload:
        scale = float(
            Fraction(config.sensitivity("histogram")) / declared.target_epsilons[target.id]
        )
        tests[target.id] = laplace_counts_test(
            declared.raw_counts[target.id], truths[target.id], scale=scale, z_limit=z_limit
        )
    return {"flagged": any(t["flagged"] for t in tests.values()), "counts": tests}
