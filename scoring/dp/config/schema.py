"""The DP round's configuration as data (spec dp-round.md §10.3): what a checked round holds.

:class:`DPConfig` and its parts are frozen dataclasses whose field defaults are the
round's defaults (the one place they are written; the reader fills them from here), and
:meth:`DPConfig.as_dict` writes the normalised JSON back. Reading and checking the
organizer's JSON is :mod:`scoring.dp.config.parse`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text
from scoring.messages import clip

DEFAULT_IT_X = (1, 10, 14, 55, 62, 89, 91, 109, 436)


@dataclass(frozen=True)
class Target:
    """A workload histogram: its id and its attributes in round order."""

    id: str
    attributes: tuple[str, ...]


@dataclass(frozen=True)
class Level:
    """A privacy level: its id and its budget B (exact)."""

    id: str
    epsilon: Fraction


@dataclass(frozen=True)
class Reconstruction:
    """Parameters of the iterative Bayes reconstruction (eq. 3, §3.5)."""

    init: str = "uniform"
    tol: float = 1e-4
    max_iter: int = 100_000


@dataclass(frozen=True)
class Baselines:
    """Parameters of the paper's baselines (§9)."""

    trials: int = 30
    rho_rule: str = "exact"
    aggregate: str = "median_of_measures"
    it_x: tuple[int, ...] = DEFAULT_IT_X
    x_max: int = 1000
    seed: int = 2016


@dataclass(frozen=True)
class DPConfig:
    """A validated DP round configuration (spec §10.3 lists every key and default)."""

    attributes: dict[str, tuple[str, ...]]
    workload: tuple[Target, ...]
    levels: tuple[Level, ...]
    numeric: dict[str, tuple[float, float]] = field(default_factory=dict)
    adjacency: str = "replace"
    interactive: bool = True
    batch: str = "platform"
    query_types: tuple[str, ...] = ("histogram", "count")
    max_charges_per_level: int = 1000
    max_cells: int = 100_000
    reconstruction: Reconstruction = Reconstruction()
    rank_metric: str = "l2"
    target_aggregate: str = "mean"
    overall: str = "rank_sum"
    spearman_gate: float | None = None
    feedback: str = "after_close"
    plausibility_z: float = 4.0
    publish_truth: bool = False
    baselines: Baselines = Baselines()

    @property
    def attribute_names(self) -> tuple[str, ...]:
        """Every attribute, in round order."""
        return tuple(self.attributes)

    @property
    def workload_attributes(self) -> tuple[str, ...]:
        """The attributes some target uses, in round order (what a batch release holds)."""
        used = {a for target in self.workload for a in target.attributes}
        return tuple(a for a in self.attributes if a in used)

    def domain_sizes(self, attributes) -> tuple[int, ...]:
        """``V_w`` of each attribute named."""
        return tuple(len(self.attributes[a]) for a in attributes)

    def target(self, target_id: str) -> Target:
        """The workload target ``target_id`` (KeyError if unknown)."""
        for target in self.workload:
            if target.id == target_id:
                return target
        raise KeyError(target_id)

    def level(self, level_id: str) -> Level:
        """The level ``level_id``; ``dp.query.unknown_level`` if there is none."""
        for level in self.levels:
            if level.id == level_id:
                return level
        raise DPError(
            "dp.query.unknown_level",
            level=clip(level_id),
            levels=", ".join(level.id for level in self.levels),
        )

    def cells(self, target_id: str) -> int:
        """``V_S`` of a workload target."""
        return math.prod(self.domain_sizes(self.target(target_id).attributes))

    def in_round_order(self, attributes) -> tuple[str, ...]:
        """``attributes`` sorted in round order."""
        order = {a: k for k, a in enumerate(self.attributes)}
        return tuple(sorted(attributes, key=order.__getitem__))

    def sensitivity(self, query_type: str) -> int:
        """Δ of a histogram or count query under the round's adjacency (§3.7)."""
        if query_type == "histogram" and self.adjacency == "replace":
            return 2
        return 1

    def check_platform_release(self) -> None:
        """``dp.release.batch_off`` unless the round runs platform releases (batch ``platform``/``both``)."""
        if self.batch not in ("platform", "both"):
            raise DPError("dp.release.batch_off")

    def check_free_estimate(self) -> None:
        """``dp.estimate.upload_mode`` in a declared-upload round (its estimate is the platform's)."""
        if self.batch == "upload":
            raise DPError("dp.estimate.upload_mode")

    def as_dict(self) -> dict:
        """The normalised JSON form (every default filled in; ε as exact text)."""
        return {
            "kind": "dp",
            "attributes": {a: list(d) for a, d in self.attributes.items()},
            "numeric": {c: {"range": [lo, hi]} for c, (lo, hi) in self.numeric.items()},
            "workload": [{"id": t.id, "attributes": list(t.attributes)} for t in self.workload],
            "levels": [{"id": lv.id, "epsilon": exact_text(lv.epsilon)} for lv in self.levels],
            "adjacency": self.adjacency,
            "tracks": {"interactive": self.interactive, "batch": self.batch},
            "query_types": list(self.query_types),
            "max_charges_per_level": self.max_charges_per_level,
            "max_cells": self.max_cells,
            "reconstruction": {
                "init": self.reconstruction.init,
                "tol": self.reconstruction.tol,
                "max_iter": self.reconstruction.max_iter,
            },
            "rank_metric": self.rank_metric,
            "target_aggregate": self.target_aggregate,
            "overall": self.overall,
            "spearman_gate": self.spearman_gate,
            "feedback": self.feedback,
            "plausibility_z": self.plausibility_z,
            "publish_truth": self.publish_truth,
            "baselines": {
                "trials": self.baselines.trials,
                "rho_rule": self.baselines.rho_rule,
                "aggregate": self.baselines.aggregate,
                "it_x": list(self.baselines.it_x),
                "x_max": self.baselines.x_max,
                "seed": self.baselines.seed,
            },
        }
