"""Reading and checking a DP round's configuration (spec dp-round.md §10, §12 messages).

:func:`parse_config` turns the organizer's JSON into a frozen
:class:`~scoring.dp.config.schema.DPConfig`, in stages (the document, the attributes and
the workload, the levels, the tracks, the scoring options, the rules between options),
and raises :class:`~scoring.dp.errors.DPError` at the first problem; the shape it fills is
:mod:`scoring.dp.config.schema`.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from typing import Any

from scoring.bounded_json import loads_bounded
from scoring.dp.config.schema import Baselines, DPConfig, Level, Reconstruction, Target
from scoring.dp.errors import DPError, DPErrors
from scoring.dp.exact import exact_text, parse_epsilon
from scoring.encodings import fold_lookalikes
from scoring.errors import ConfigChecks, ConfigError
from scoring.identifiers import IDENTIFIER_MAX_LENGTH, is_identifier
from scoring.messages import clip

MAX_LEVEL_EPSILON = Fraction(100)

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
            # Values are compared with cells as fold_lookalikes leaves them (scoring.dp.data).
            key = fold_lookalikes(value)
            if key in seen:
                raise DPError(
                    "dp.attr.duplicate",
                    attribute=clip(name),
                    value=clip(value),
                    first=seen[key],
                    second=position,
                )
            seen[key] = position
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


def _identified_entries(
    raw: Any, *, key: str, field: str, sample: str, duplicate: str, name: str, check_ids: bool
):
    """``(id, entry)`` of a non-empty list of ``{"id": text, <field>: <sample>}`` with
    distinct ids (``workload`` and ``levels``); a repeated id raises ``duplicate`` with the id
    as the parameter ``name``. With ``check_ids``, an id is one of
    :func:`scoring.identifiers.is_identifier` (with dots): it is a part of the round's URLs
    and of file names."""
    if not isinstance(raw, list) or not raw:
        raise _bad(key, f'a non-empty list of {{"id", "{field}"}}', raw)
    ids = set()
    for entry in raw:
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str) or not entry["id"]:
            raise _bad(key, f'a list of {{"id": text, "{field}": {sample}}}', entry)
        entry_id = entry["id"]
        if check_ids and not is_identifier(entry_id, dots=True):
            raise DPError(f"dp.{name}.id_form", **{name: clip(entry_id)}, max=IDENTIFIER_MAX_LENGTH)
        if entry_id in ids:
            raise DPError(duplicate, **{name: clip(entry_id)})
        ids.add(entry_id)
        yield entry_id, entry


def _parse_workload(
    raw: Any, attributes: dict, max_cells: int, *, check_ids: bool
) -> tuple[Target, ...]:
    order = {a: k for k, a in enumerate(attributes)}
    targets = []
    for target_id, entry in _identified_entries(
        raw,
        key="workload",
        field="attributes",
        sample="[...]",
        duplicate="dp.target.duplicate",
        name="target",
        check_ids=check_ids,
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


def _parse_levels(raw: Any, *, check_ids: bool) -> tuple[Level, ...]:
    levels = []
    for level_id, entry in _identified_entries(
        raw,
        key="levels",
        field="epsilon",
        sample="...",
        duplicate="dp.level.duplicate",
        name="level",
        check_ids=check_ids,
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
    it_x = raw.get("it_x", list(Baselines.it_x))
    if (
        not isinstance(it_x, list)
        or not it_x
        or not all(isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in it_x)
    ):
        raise _bad("baselines.it_x", "a non-empty list of positive integers", it_x)
    seed = raw.get("seed", Baselines.seed)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise _bad("baselines.seed", "a non-negative integer", seed)
    return Baselines(
        trials=_integer(raw, "trials", Baselines.trials, 1, 1000, "baselines.trials"),
        rho_rule=_choice(
            raw, "rho_rule", ("exact", "paper_linear"), Baselines.rho_rule, "baselines.rho_rule"
        ),
        aggregate=_choice(
            raw,
            "aggregate",
            ("median_of_measures", "mean_of_measures", "measure_of_medians"),
            Baselines.aggregate,
            "baselines.aggregate",
        ),
        it_x=tuple(it_x),
        x_max=_integer(raw, "x_max", Baselines.x_max, 1, 10_000, "baselines.x_max"),
        seed=seed,
    )


def _parse_reconstruction(raw: Any) -> Reconstruction:
    if not isinstance(raw, dict) or set(raw) - {"init", "tol", "max_iter"}:
        raise _bad("reconstruction", "an object with init, tol, max_iter", raw)
    tol = raw.get("tol", Reconstruction.tol)
    if not _number(tol) or not 0 < tol < 1:
        raise _bad("reconstruction.tol", "a number in (0, 1)", tol)
    return Reconstruction(
        init=_choice(
            raw, "init", ("uniform", "observed"), Reconstruction.init, "reconstruction.init"
        ),
        tol=float(tol),
        max_iter=_integer(
            raw, "max_iter", Reconstruction.max_iter, 1, 1_000_000, "reconstruction.max_iter"
        ),
    )


def _document(raw: Any) -> dict:
    """The configuration as a JSON object with known keys only, the required ones present."""
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
    return raw


def _parse_tracks(raw: Any) -> tuple[bool, str]:
    """``tracks``: (interactive, batch)."""
    if not isinstance(raw, dict) or set(raw) - {"interactive", "batch"}:
        raise _bad("tracks", "an object with interactive, batch", raw)
    interactive = raw.get("interactive", DPConfig.interactive)
    if not isinstance(interactive, bool):
        raise _bad("tracks.interactive", "true or false", interactive)
    batch = _choice(
        raw, "batch", ("off", "platform", "upload", "both"), DPConfig.batch, "tracks.batch"
    )
    return interactive, batch


def _parse_query_types(raw: dict) -> tuple[str, ...]:
    query_types = raw.get("query_types", list(DPConfig.query_types))
    if (
        not isinstance(query_types, list)
        or not set(query_types) <= {"histogram", "count", "mean"}
        or len(set(query_types)) != len(query_types)
    ):
        raise _bad("query_types", "a subset of ['histogram', 'count', 'mean']", query_types)
    return tuple(query_types)


def _parse_gates_and_feedback(raw: dict) -> dict[str, Any]:
    """``spearman_gate``, ``plausibility_z``, ``publish_truth`` and ``feedback``, checked in order."""
    gate = raw.get("spearman_gate", DPConfig.spearman_gate)
    if gate is not None and (not _number(gate) or not -1 <= gate <= 1):
        raise _bad("spearman_gate", "null or a number in [-1, 1]", gate)
    plausibility_z = raw.get("plausibility_z", DPConfig.plausibility_z)
    if not _number(plausibility_z) or plausibility_z <= 0:
        raise _bad("plausibility_z", "a number > 0", plausibility_z)
    publish_truth = raw.get("publish_truth", DPConfig.publish_truth)
    if not isinstance(publish_truth, bool):
        raise _bad("publish_truth", "true or false", publish_truth)
    return {
        "spearman_gate": None if gate is None else float(gate),
        "plausibility_z": float(plausibility_z),
        "publish_truth": publish_truth,
        "feedback": _choice(raw, "feedback", ("after_close", "live"), DPConfig.feedback),
    }


def _check_option_rules(*, adjacency: str, interactive: bool, batch: str, feedback: str) -> None:
    """The rules between options: a released table of N rows reveals N (so the batch track
    needs ``replace``), and live scores reveal the hidden histograms (upload-only rounds)."""
    if adjacency == "add_remove" and batch != "off":
        raise DPError("dp.config.batch_needs_replace")
    if feedback == "live" and (batch != "upload" or interactive):
        raise DPError("dp.config.live_feedback")


def parse_config(raw: Any, *, check_ids: bool = True) -> DPConfig:
    """Validate a DP round configuration and return it as a :class:`DPConfig`.

    Parameters
    ----------
    raw : dict, str or bytes
        The configuration as a JSON object, or its JSON text.
    check_ids : bool, keyword-only
        Whether the levels' and targets' ids must follow the identifier rule (a new
        configuration); a stored one, checked when it was saved, is read without it (ids
        saved before the rule keep working).

    Raises
    ------
    DPError
        Every problem found (a ``DPErrors`` when there are several), each with the
        message of spec §12.
    """
    raw = _document(raw)
    # Each key is checked on its own and every error found is reported at once (a
    # ``DPErrors`` when there are several); a check that needs another key's value (the
    # workload its attributes and cell cap, the rules between options) waits until that
    # key is right.
    checks = ConfigChecks(DPError, DPErrors)
    attributes = checks.run(_parse_attributes, raw["attributes"])
    numeric = checks.run(_parse_numeric, raw.get("numeric", {}))
    max_cells = checks.run(_integer, raw, "max_cells", DPConfig.max_cells, 2, 100_000_000)
    workload = None
    if attributes is not None and max_cells is not None:
        workload = checks.run(
            _parse_workload, raw["workload"], attributes, max_cells, check_ids=check_ids
        )
    levels = checks.run(_parse_levels, raw["levels"], check_ids=check_ids)
    adjacency = checks.run(_choice, raw, "adjacency", ("replace", "add_remove"), DPConfig.adjacency)
    tracks = checks.run(_parse_tracks, raw.get("tracks", {}))
    query_types = checks.run(_parse_query_types, raw)
    gates_and_feedback = checks.run(_parse_gates_and_feedback, raw)
    max_charges = checks.run(
        _integer, raw, "max_charges_per_level", DPConfig.max_charges_per_level, 1, 100_000
    )
    reconstruction = checks.run(_parse_reconstruction, raw.get("reconstruction", {}))
    rank_metric = checks.run(_choice, raw, "rank_metric", ("l2", "spearman"), DPConfig.rank_metric)
    target_aggregate = checks.run(
        _choice, raw, "target_aggregate", ("mean",), DPConfig.target_aggregate
    )
    overall = checks.run(_choice, raw, "overall", ("rank_sum",), DPConfig.overall)
    baselines = checks.run(_parse_baselines, raw.get("baselines", {}))
    if None not in (adjacency, tracks, gates_and_feedback):
        checks.run(
            _check_option_rules,
            adjacency=adjacency,
            interactive=tracks[0],
            batch=tracks[1],
            feedback=gates_and_feedback["feedback"],
        )
    checks.raise_found()
    interactive, batch = tracks
    return DPConfig(
        attributes=attributes,
        workload=workload,
        levels=levels,
        numeric=numeric,
        adjacency=adjacency,
        interactive=interactive,
        batch=batch,
        query_types=query_types,
        max_charges_per_level=max_charges,
        max_cells=max_cells,
        reconstruction=reconstruction,
        rank_metric=rank_metric,
        target_aggregate=target_aggregate,
        overall=overall,
        baselines=baselines,
        **gates_and_feedback,
    )


def validate_config(raw: Any) -> dict:
    """The normalised configuration (defaults filled in), or :class:`DPError`."""
    return parse_config(raw).as_dict()


def load_dp_config(path) -> DPConfig:
    """Read and validate a configuration file (UTF-8, BOM allowed)."""
    with open(path, encoding="utf-8-sig") as handle:
        return parse_config(handle.read())
