"""The DP round's configuration (spec dp-round.md §10): parsing, validation, defaults.

:func:`parse_config` turns the organizer's JSON into a frozen :class:`DPConfig`;
:func:`validate_config` returns the normalised JSON (every default filled in, ε as exact
text) or raises :class:`scoring.dp.errors.DPError` with the §12 message.

Examples
--------
>>> config = parse_config({
...     "attributes": {"gender": ["F", "M"], "age": ["<=17", "18-24", "25-34"]},
...     "workload": [{"id": "ga", "attributes": ["age", "gender"]}],
...     "levels": [{"id": "eps-1", "epsilon": "1"}]})
>>> config.workload[0].attributes  # kept in round order
('gender', 'age')
>>> config.cells("ga")
6
>>> parse_config({"attributes": {"a": ["x"]}, "workload": [], "levels": []})
Traceback (most recent call last):
...
scoring.dp.errors.DPError: Attribute 'a' needs at least 2 values
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from scoring.bounded_json import loads_bounded
from scoring.dp.errors import DPError
from scoring.dp.exact import exact_text, parse_epsilon
from scoring.errors import ConfigError
from scoring.messages import clip

MAX_LEVEL_EPSILON = Fraction(100)
DEFAULT_IT_X = (1, 10, 14, 55, 62, 89, 91, 109, 436)

KNOWN_KEYS = (
    "kind",
    "attributes",
    "numeric",
    "workload",
    "levels",
    "adjacency",
    "tracks",
    "query_types",
    "max_charges_per_level",
    "max_cells",
    "reconstruction",
    "rank_metric",
    "target_aggregate",
    "overall",
    "spearman_gate",
    "feedback",
    "plausibility_z",
    "publish_truth",
    "baselines",
)
REQUIRED_KEYS = ("attributes", "workload", "levels")


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


def _bad(key: str, expected: str, value: Any) -> DPError:
    return DPError(
        "dp.config.bad_value",
        key=key,
        expected=expected,
        value=clip(json.dumps(value, default=str)),
    )


def _choice(raw: dict, key: str, choices: tuple, default, label: str | None = None):
    value = raw.get(key, default)
    if value not in choices:
        raise _bad(label or key, " or ".join(repr(c) for c in choices), value)
    return value


def _integer(raw: dict, key: str, default: int, lo: int, hi: int, label: str | None = None) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(label or key, f"an integer from {lo:,} to {hi:,}", value)
    return value


def _number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, int | float) and math.isfinite(value)


def _parse_attributes(raw: Any) -> dict[str, tuple[str, ...]]:
    if not isinstance(raw, dict) or not raw:
        raise _bad("attributes", "an object: name → list of values", raw)
    attributes = {}
    for name, domain in raw.items():
        if not isinstance(domain, list) or not all(isinstance(v, str | int) for v in domain):
            raise _bad(f"attributes.{name}", "a list of strings", domain)
        values = [str(v).strip() for v in domain]
        if len(values) < 2:
            raise DPError("dp.attr.too_few", attribute=clip(name))
        seen: dict[str, int] = {}
        for position, value in enumerate(values, start=1):
            if value == "":
                raise DPError("dp.attr.empty_value", attribute=clip(name), position=position)
            if value in seen:
                raise DPError(
                    "dp.attr.duplicate",
                    attribute=clip(name),
                    value=clip(value),
                    first=seen[value],
                    second=position,
                )
            seen[value] = position
        attributes[str(name).strip()] = tuple(values)
    return attributes


def _parse_numeric(raw: Any) -> dict[str, tuple[float, float]]:
    if not isinstance(raw, dict):
        raise _bad("numeric", 'an object: column → {"range": [lo, hi]}', raw)
    numeric = {}
    for column, spec in raw.items():
        bounds = spec.get("range") if isinstance(spec, dict) else None
        if (
            not isinstance(bounds, list)
            or len(bounds) != 2
            or not all(_number(b) for b in bounds)
            or not bounds[0] < bounds[1]
        ):
            raise DPError("dp.numeric.range", column=clip(column))
        numeric[column] = (float(bounds[0]), float(bounds[1]))
    return numeric


def _identified_entries(raw: Any, *, key: str, field: str, sample: str, duplicate: str, name: str):
    """``(id, entry)`` of a non-empty list of ``{"id": text, <field>: <sample>}`` with
    distinct ids (``workload`` and ``levels``); a repeated id raises ``duplicate`` with the id
    as the parameter ``name``."""
    if not isinstance(raw, list) or not raw:
        raise _bad(key, f'a non-empty list of {{"id", "{field}"}}', raw)
    ids = set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise _bad(key, f'a list of {{"id": text, "{field}": {sample}}}', entry)
        entry_id = entry["id"]
        if entry_id in ids:
            raise DPError(duplicate, **{name: clip(entry_id)})
        ids.add(entry_id)
        yield entry_id, entry


def _parse_workload(raw: Any, attributes: dict, max_cells: int) -> tuple[Target, ...]:
    order = {a: k for k, a in enumerate(attributes)}
    targets = []
    for target_id, entry in _identified_entries(
        raw,
        key="workload",
        field="attributes",
        sample="[...]",
        duplicate="dp.target.duplicate",
        name="target",
    ):
        names = entry.get("attributes")
        if not isinstance(names, list) or not names:
            raise DPError("dp.target.empty", target=clip(target_id))
        seen = set()
        for name in names:
            if not isinstance(name, str) or name not in attributes:
                raise DPError(
                    "dp.target.unknown_attribute", target=clip(target_id), attribute=clip(name)
                )
            if name in seen:
                raise DPError(
                    "dp.target.repeated_attribute", target=clip(target_id), attribute=clip(name)
                )
            seen.add(name)
        ordered = tuple(sorted(names, key=order.__getitem__))
        cells = math.prod(len(attributes[a]) for a in ordered)
        if cells > max_cells:
            raise DPError(
                "dp.target.too_many_cells",
                target=clip(target_id),
                cells=f"{cells:,}",
                limit=f"{max_cells:,}",
            )
        targets.append(Target(target_id, ordered))
    return tuple(targets)


def _parse_levels(raw: Any) -> tuple[Level, ...]:
    levels = []
    for level_id, entry in _identified_entries(
        raw,
        key="levels",
        field="epsilon",
        sample="...",
        duplicate="dp.level.duplicate",
        name="level",
    ):
        epsilon = parse_epsilon(entry.get("epsilon"), positive=False)
        if epsilon <= 0:
            raise DPError(
                "dp.level.not_positive", level=clip(level_id), epsilon=exact_text(epsilon)
            )
        if epsilon > MAX_LEVEL_EPSILON:
            raise DPError("dp.level.too_large", level=clip(level_id), epsilon=exact_text(epsilon))
        levels.append(Level(level_id, epsilon))
    return tuple(levels)


def _parse_baselines(raw: Any) -> Baselines:
    if not isinstance(raw, dict):
        raise _bad("baselines", "an object", raw)
    unknown = set(raw) - {"trials", "rho_rule", "aggregate", "it_x", "x_max", "seed"}
    if unknown:
        raise _bad(
            "baselines", "an object with trials, rho_rule, aggregate, it_x, x_max, seed", raw
        )
    it_x = raw.get("it_x", list(DEFAULT_IT_X))
    if (
        not isinstance(it_x, list)
        or not it_x
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in it_x)
    ):
        raise _bad("baselines.it_x", "a non-empty list of positive integers", it_x)
    seed = raw.get("seed", 2016)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _bad("baselines.seed", "a non-negative integer", seed)
    return Baselines(
        trials=_integer(raw, "trials", 30, 1, 1000, "baselines.trials"),
        rho_rule=_choice(raw, "rho_rule", ("exact", "paper_linear"), "exact", "baselines.rho_rule"),
        aggregate=_choice(
            raw,
            "aggregate",
            ("median_of_measures", "mean_of_measures", "measure_of_medians"),
            "median_of_measures",
            "baselines.aggregate",
        ),
        it_x=tuple(it_x),
        x_max=_integer(raw, "x_max", 1000, 1, 10_000, "baselines.x_max"),
        seed=seed,
    )


def _parse_reconstruction(raw: Any) -> Reconstruction:
    if not isinstance(raw, dict) or set(raw) - {"init", "tol", "max_iter"}:
        raise _bad("reconstruction", "an object with init, tol, max_iter", raw)
    tol = raw.get("tol", 1e-4)
    if not _number(tol) or not 0 < tol < 1:
        raise _bad("reconstruction.tol", "a number in (0, 1)", tol)
    return Reconstruction(
        init=_choice(raw, "init", ("uniform", "observed"), "uniform", "reconstruction.init"),
        tol=float(tol),
        max_iter=_integer(raw, "max_iter", 100_000, 1, 1_000_000, "reconstruction.max_iter"),
    )


def parse_config(raw: Any) -> DPConfig:
    """Validate a DP round configuration and return it as a :class:`DPConfig`.

    Parameters
    ----------
    raw : dict, str or bytes
        The configuration as a JSON object, or its JSON text.

    Raises
    ------
    DPError
        The first problem found, with the message of spec §12.
    """
    if isinstance(raw, bytes | str):
        try:
            raw = loads_bounded(raw)
        except ConfigError as exc:
            raise DPError("dp.config.not_json", detail=clip(str(exc))) from exc
    if not isinstance(raw, dict):
        raise DPError("dp.config.not_object")
    for key in raw:
        if key not in KNOWN_KEYS:
            raise DPError("dp.config.unknown_key", key=clip(key), known=", ".join(KNOWN_KEYS))
    for key in REQUIRED_KEYS:
        if key not in raw:
            raise DPError("dp.config.missing_key", key=key)
    if raw.get("kind", "dp") != "dp":
        raise _bad("kind", "'dp'", raw.get("kind"))
    attributes = _parse_attributes(raw["attributes"])
    numeric = _parse_numeric(raw.get("numeric", {}))
    max_cells = _integer(raw, "max_cells", 100_000, 2, 100_000_000)
    workload = _parse_workload(raw["workload"], attributes, max_cells)
    levels = _parse_levels(raw["levels"])
    adjacency = _choice(raw, "adjacency", ("replace", "add_remove"), "replace")
    tracks = raw.get("tracks", {})
    if not isinstance(tracks, dict) or set(tracks) - {"interactive", "batch"}:
        raise _bad("tracks", "an object with interactive, batch", tracks)
    interactive = tracks.get("interactive", True)
    if not isinstance(interactive, bool):
        raise _bad("tracks.interactive", "true or false", interactive)
    batch = _choice(
        tracks, "batch", ("off", "platform", "upload", "both"), "platform", "tracks.batch"
    )
    query_types = raw.get("query_types", ["histogram", "count"])
    if (
        not isinstance(query_types, list)
        or not set(query_types) <= {"histogram", "count", "mean"}
        or len(set(query_types)) != len(query_types)
    ):
        raise _bad("query_types", "a subset of ['histogram', 'count', 'mean']", query_types)
    gate = raw.get("spearman_gate")
    if gate is not None and (not _number(gate) or not -1 <= gate <= 1):
        raise _bad("spearman_gate", "null or a number in [-1, 1]", gate)
    plausibility_z = raw.get("plausibility_z", 4.0)
    if not _number(plausibility_z) or plausibility_z <= 0:
        raise _bad("plausibility_z", "a number > 0", plausibility_z)
    publish_truth = raw.get("publish_truth", False)
    if not isinstance(publish_truth, bool):
        raise _bad("publish_truth", "true or false", publish_truth)
    feedback = _choice(raw, "feedback", ("after_close", "live"), "after_close")
    if adjacency == "add_remove" and batch != "off":
        raise DPError("dp.config.batch_needs_replace")
    if feedback == "live" and (batch != "upload" or interactive):
        raise DPError("dp.config.live_feedback")
    return DPConfig(
        attributes=attributes,
        workload=workload,
        levels=levels,
        numeric=numeric,
        adjacency=adjacency,
        interactive=interactive,
        batch=batch,
        query_types=tuple(query_types),
        max_charges_per_level=_integer(raw, "max_charges_per_level", 1000, 1, 100_000),
        max_cells=max_cells,
        reconstruction=_parse_reconstruction(raw.get("reconstruction", {})),
        rank_metric=_choice(raw, "rank_metric", ("l2", "spearman"), "l2"),
        target_aggregate=_choice(raw, "target_aggregate", ("mean",), "mean"),
        overall=_choice(raw, "overall", ("rank_sum",), "rank_sum"),
        spearman_gate=None if gate is None else float(gate),
        feedback=feedback,
        plausibility_z=float(plausibility_z),
        publish_truth=publish_truth,
        baselines=_parse_baselines(raw.get("baselines", {})),
    )


def validate_config(raw: Any) -> dict:
    """The normalised configuration (defaults filled in), or :class:`DPError`."""
    return parse_config(raw).as_dict()


def load_dp_config(path) -> DPConfig:
    """Read and validate a configuration file (UTF-8, BOM allowed)."""
    with open(path, encoding="utf-8-sig") as handle:
        return parse_config(handle.read())
